// A stand-in for a library the app links against (the Swift runtime, Android's system
// libraries): only the symbols the fixtures call, so the linker records it in DT_NEEDED.
void swift_retain(void *object) { (void)object; }
int __android_log_write(int priority, const char *tag, const char *text) {
    (void)priority; (void)tag; (void)text;
    return 0;
}
int property_get(const char *key, char *value, const char *fallback) {
    (void)key; (void)value; (void)fallback;
    return 0;
}
