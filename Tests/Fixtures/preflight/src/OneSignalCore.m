// OneSignal 5's OneSignalCore.framework in miniature: the vendor's own framework, whose
// Objective-C classes carry the vendor's name (OneSignalClient, OneSignalCoreHelper) beside
// others (OSRequests). Shipped with its own PrivacyInfo.xcprivacy, it is the SDK, not a copy of
// it linked into something else.
__attribute__((objc_root_class)) @interface OneSignalClient
@end
@implementation OneSignalClient
@end

__attribute__((objc_root_class)) @interface OneSignalCoreHelper
@end
@implementation OneSignalCoreHelper
@end

__attribute__((objc_root_class)) @interface OSRequests
@end
@implementation OSRequests
@end
