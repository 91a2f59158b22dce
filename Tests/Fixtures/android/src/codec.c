// A codec built the old way: without -fPIC (so 32-bit x86 code addresses its table absolutely,
// leaving text relocations) and against the platform's private libcutils.
extern int property_get(const char *key, char *value, const char *fallback);
int codec_table[4] = {1, 2, 3, 4};

int codec_decode(int index) {
    char value[92];
    property_get("ro.codec", value, "");
    return codec_table[index & 3];
}
