/* sys.h: raw Linux x86-64 system calls for the freestanding start-up code,
 * which runs before any libc or Go runtime exists. */
#ifndef GS_SYS_H
#define GS_SYS_H

#include <stdint.h>

#define GS_SYS_read 0
#define GS_SYS_write 1
#define GS_SYS_close 3
#define GS_SYS_fstat 5
#define GS_SYS_lseek 8
#define GS_SYS_mmap 9
#define GS_SYS_munmap 11
#define GS_SYS_pread64 17
#define GS_SYS_madvise 28
#define GS_SYS_pwrite64 18
#define GS_SYS_nanosleep 35
#define GS_SYS_getpid 39
#define GS_SYS_fcntl 72
#define GS_SYS_flock 73
#define GS_SYS_ftruncate 77
#define GS_SYS_rename 82
#define GS_SYS_link 86
#define GS_SYS_unlink 87
#define GS_SYS_readlink 89
#define GS_SYS_geteuid 107
#define GS_SYS_clock_gettime 228
#define GS_SYS_exit_group 231
#define GS_SYS_openat 257
#define GS_SYS_newfstatat 262
#define GS_SYS_fallocate 285
#define GS_SYS_renameat2 316
#define GS_SYS_getrandom 318

#define GS_AT_FDCWD (-100)
#define GS_AT_SYMLINK_NOFOLLOW 0x100
#define GS_O_RDONLY 0
#define GS_O_RDWR 2
#define GS_O_CREAT 0100
#define GS_O_EXCL 0200
#define GS_O_NONBLOCK 04000
#define GS_O_NOFOLLOW 0400000
#define GS_O_CLOEXEC 02000000
#define GS_MADV_RANDOM 1
#define GS_MADV_DONTNEED 4
#define GS_PROT_READ 1
#define GS_PROT_WRITE 2
#define GS_MAP_SHARED 1
#define GS_MAP_FIXED 0x10
#define GS_MAP_PRIVATE 2
#define GS_MAP_ANONYMOUS 0x20
#define GS_MAP_NORESERVE 0x4000
#define GS_ENOENT 2
#define GS_EEXIST 17
#define GS_EINVAL 22
#define GS_RENAME_NOREPLACE 1
#define GS_RENAME_EXCHANGE 2
#define GS_ENXIO 6
#define GS_EWOULDBLOCK 11
#define GS_SEEK_DATA 3
#define GS_SEEK_HOLE 4
#define GS_LOCK_EX 2
#define GS_LOCK_NB 4
#define GS_F_OFD_SETLK 37
#define GS_F_RDLCK 0
#define GS_FALLOC_PUNCH 3          /* FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE */
#define GS_S_IFMT 0170000
#define GS_S_IFREG 0100000
#define GS_EOPNOTSUPP 95
#define GS_ENAMETOOLONG 36

/* struct stat of x86-64 Linux */
struct gs_stat {
    uint64_t dev, ino, nlink;
    uint32_t mode, uid, gid, pad;
    uint64_t rdev;
    int64_t size, blksize, blocks;
    uint64_t times[6];
    int64_t reserved[3];
};

/* struct flock of x86-64 Linux */
struct gs_flock {
    int16_t type, whence;
    int32_t pad;
    int64_t start, len;
    int32_t pid, pad2;
};

static inline long gs_syscall6(long n, long a, long b, long c, long d, long e, long f)
{
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

#define gs_syscall3(n, a, b, c) gs_syscall6((n), (long)(a), (long)(b), (long)(c), 0, 0, 0)

/* A read lock on the whole file, owned by fd's open file description: it
 * lasts while that description does (the descriptor or a mapping of it),
 * at the latest until the process exits. gostat sees a running writer by
 * it (gostat/read/proc.h), even from another pid namespace. Failure (an
 * old kernel) leaves gostat going by the pid alone. */
static inline void gs_hold_read_lock(long fd)
{
    struct gs_flock l = {.type = GS_F_RDLCK};
    gs_syscall3(GS_SYS_fcntl, fd, GS_F_OFD_SETLK, &l);
}

#endif
