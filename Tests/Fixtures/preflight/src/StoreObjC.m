// The same app's Objective-C: messages to Foundation classes (no SDK headers here, so the
// interfaces are declared by hand; only the selectors and class references matter).
__attribute__((objc_root_class)) @interface NSObject
@end
@interface NSProcessInfo : NSObject
+ (id)processInfo;
- (double)systemUptime;
@end
@interface NSUserDefaults : NSObject
+ (id)standardUserDefaults;
@end

double storeUptime(void) {
    return [[NSProcessInfo processInfo] systemUptime] + ([NSUserDefaults standardUserDefaults] != 0);
}
