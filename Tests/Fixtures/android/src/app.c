// The app's own native code: calls into the Swift runtime and Android's log, as a Swift app
// built with the Swift SDK for Android does.
extern void swift_retain(void *object);
extern int __android_log_write(int priority, const char *tag, const char *text);

int Java_com_example_shipcheck_Native_start(void *env, void *object) {
    swift_retain(object);
    return __android_log_write(4, "shipcheck", "started");
}
