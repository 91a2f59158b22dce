//
//  SVProgressHUD-Framework.h
//  SVProgressHUD-Framework
//
//  Created by Florent Vilmart on 2015-03-13.
//  Copyright (c) 2015 EmbeddedSources. All rights reserved.
//

#import <UIKit/UIKit.h>

//! Project version number for SVProgressHUD-Framework.
FOUNDATION_EXPORT double SVProgressHUD_FrameworkVersionNumber;

//! Project version string for SVProgressHUD-Framework.
FOUNDATION_EXPORT const unsigned char SVProgressHUD_FrameworkVersionString[];

#import <SVProgressHUD/SVProgressHUD.h>
