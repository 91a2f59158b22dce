// A library as older NDKs and other toolchains built it: no ABI note, and compiled without
// -fPIC, so the 32-bit ARM code loads its table's address from a literal pool the loader must
// patch (text relocations).
int loose_table[4] = {1, 2, 3, 4};

int loose_lookup(int index) { return loose_table[index & 3]; }
