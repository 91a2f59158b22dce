// A framework that asks for location when in use (the app must describe it:
// NSLocationWhenInUseUsageDescription): a class reference and a selector, nothing else.
__attribute__((objc_root_class)) @interface NSObject
+ (id)new;
@end
@interface CLLocationManager : NSObject
- (void)requestWhenInUseAuthorization;
@end

void askForLocation(void) {
    [[CLLocationManager new] requestWhenInUseAuthorization];
}
