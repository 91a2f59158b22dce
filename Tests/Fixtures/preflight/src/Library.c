// An embedded framework's code; LIBRARY_NAME tells the builds apart.
int LIBRARY_NAME(int value) { return value * 2 + 1; }
