// A release app's C code: file timestamps and the boot clock (required-reason APIs), nothing else.
struct stat_buffer { char bytes[144]; };
extern int stat(const char *path, struct stat_buffer *buffer);
extern int fstat(int descriptor, struct stat_buffer *buffer);
extern unsigned long long mach_absolute_time(void);
extern void *NSFileModificationDate;
extern double storeUptime(void);

int main(void) {
    struct stat_buffer buffer;
    int changed = stat("/var/mobile/Library/Caches", &buffer) + fstat(0, &buffer);
    return changed + (int)(mach_absolute_time() & 1) + (NSFileModificationDate != 0) + (storeUptime() > 0);
}
