// A vendor framework (named like none of Apple's list) that links SDWebImage statically: the
// SDK's Objective-C classes are defined in its binary beside the vendor's own.
__attribute__((objc_root_class)) @interface SDWebImageManager
@end
@implementation SDWebImageManager
@end

__attribute__((objc_root_class)) @interface SDWebImageDownloader
@end
@implementation SDWebImageDownloader
@end

__attribute__((objc_root_class)) @interface STPStickerView
@end
@implementation STPStickerView
@end
