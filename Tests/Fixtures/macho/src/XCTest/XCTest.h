// A stand-in for Apple's XCTest: an Objective-C root class, so Swift subclasses reference
// _OBJC_CLASS_$_XCTestCase as in real test bundles.
__attribute__((objc_root_class))
@interface XCTestCase
+ (instancetype)alloc;
- (instancetype)init;
@end
