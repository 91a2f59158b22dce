// Fixture data compiled into the app (the fixtures are built without the Swift standard library,
// so the strings come from C; Swift string literals land in the same sections): C strings in
// __TEXT,__cstring and one in __TEXT,__oslogstring (another C-string section).
__attribute__((used)) const char *const fixtureDeveloperPath = "/Users/alice/Projects/App/Preview Content/users.json";
__attribute__((used)) const char *const fixturePlaceholder = "Lorem ipsum dolor sit amet, consectetur";
#ifdef __APPLE__
__attribute__((used, section("__TEXT,__oslogstring,cstring_literals")))
#endif
static const char fixtureLogged[] = "loading /home/builder/fixtures/sample.json";
__attribute__((used)) const char *const fixtureLoggedRef = fixtureLogged;
// Not a fixture: must not be reported.
__attribute__((used)) const char *const shippingMessage = "Preview unavailable in this build";
