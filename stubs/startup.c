/* startup.c: creates the stats file and maps the counters onto it, before
 * the Go runtime starts. Freestanding: no libc, raw system calls only, no
 * writable globals (the blob lives in an executable, read-only segment).
 *
 * On any failure the program still runs: counters stay in the zero-filled
 * RW segment, and one line goes to stderr unless GOSTAT_QUIET=1. */
#include "format/gostat_format.h"
#include "format/stub_abi.h"
#include "stubs/finish.h"
#include "stubs/freestanding.h"
#include "stubs/probe_cost.h"
#include "stubs/sys.h"

#include <stddef.h>
#include <stdint.h>

/* First byte of the blob (blob.ld); unsized so no bounds are assumed. */
extern uint8_t __blob_start[];

/* Filled in by gorewrite in its copy of the blob. Volatile so the compiler
 * never folds the zeros it is built with. */
__attribute__((used)) volatile struct gs_stub_config gs_config;

struct startup_env {
    const char *dir;
    const char *merge;         /* GOSTAT_MERGE, or NULL */
    int quiet;
    int secure;                /* AT_SECURE: setuid, setgid or capabilities */
    const uint8_t *at_random;  /* AT_RANDOM: 16 bytes from the kernel, or NULL */
};

/* auxv entry types (linux/auxvec.h) */
#define GS_AT_SECURE 23
#define GS_AT_RANDOM 25
#define GS_GRND_NONBLOCK 1

/* Reads GOSTAT_DIR and GOSTAT_QUIET, then the auxiliary vector after the
 * environment. A secure process (setuid, setgid, file capabilities) must
 * not let its caller's environment choose where it creates files, nor
 * silence it: it uses the default directory and always reports. */
static void read_env(char **envp, struct startup_env *env)
{
    env->dir = "/dev/shm";
    env->quiet = 0;
    env->secure = 0;
    env->at_random = 0;
    env->merge = 0;
    const char *dir = 0, *merge = 0;
    int quiet = 0;
    for (; *envp; envp++) {
        if (gs_starts_with(*envp, "GOSTAT_DIR=") && (*envp)[11])
            dir = *envp + 11;
        else if (gs_starts_with(*envp, "GOSTAT_MERGE=") && (*envp)[13])
            merge = *envp + 13;
        else if (gs_starts_with(*envp, "GOSTAT_QUIET=") && (*envp)[13] == '1')
            quiet = 1;
    }
    for (uint64_t *aux = (uint64_t *)(envp + 1); aux[0]; aux += 2) {
        if (aux[0] == GS_AT_SECURE)
            env->secure = aux[1] != 0;
        else if (aux[0] == GS_AT_RANDOM)
            env->at_random = (const uint8_t *)aux[1];
    }
    if (env->secure)
        return;
    if (dir)
        env->dir = dir;
    env->merge = merge;
    env->quiet = quiet;
}

/* Field 22 of /proc/self/stat: the process start time in clock ticks. */
static uint64_t proc_start_ticks(void)
{
    char buf[1024];
    long fd = gs_syscall6(GS_SYS_openat, GS_AT_FDCWD, (long)"/proc/self/stat",
                          GS_O_RDONLY | GS_O_CLOEXEC, 0, 0, 0);
    if (fd < 0)
        return 0;
    long n = gs_syscall3(GS_SYS_read, fd, buf, sizeof buf - 1);
    gs_syscall3(GS_SYS_close, fd, 0, 0);
    if (n <= 0)
        return 0;
    buf[n] = 0;
    long i = n - 1;
    while (i >= 0 && buf[i] != ')')   /* the command name may hold spaces */
        i--;
    if (i < 0)
        return 0;
    int field = 2;
    for (i++; i < n && field < 22; i++)
        if (buf[i] == ' ')
            field++;
    uint64_t v = 0;
    for (; i < n && buf[i] >= '0' && buf[i] <= '9'; i++)
        v = v * 10 + (uint64_t)(buf[i] - '0');
    return v;
}

static uint64_t realtime_ns(void)
{
    struct { int64_t sec, nsec; } ts = {0, 0};
    gs_syscall3(GS_SYS_clock_gettime, 0 /* CLOCK_REALTIME */, &ts, 0);
    return (uint64_t)ts.sec * 1000000000ull + (uint64_t)ts.nsec;
}

static uint64_t monotonic_ns(void)
{
    struct { int64_t sec, nsec; } ts = {0, 0};
    gs_syscall3(GS_SYS_clock_gettime, 1 /* CLOCK_MONOTONIC */, &ts, 0);
    return (uint64_t)ts.sec * 1000000000ull + (uint64_t)ts.nsec;
}

static uint64_t read_tsc(void)
{
    uint32_t lo, hi;
    __asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

/* CPUID.80000007H:EDX[8]: the TSC runs at a constant rate in every
 * power state, so ticks measure time. */
static int tsc_is_invariant(void)
{
    uint32_t a, b, c, d;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000000u), "c"(0));
    if (a < 0x80000007u)
        return 0;
    __asm__ volatile("cpuid" : "=a"(a), "=b"(b), "=c"(c), "=d"(d) : "a"(0x80000007u), "c"(0));
    return (d >> 8) & 1;
}

/* One (TSC, CLOCK_MONOTONIC) pair: the TSC at the middle of the narrowest
 * of three clock reads, so the pair is off by at most half a system call. */
static void clock_pair(uint64_t *tsc, uint64_t *ns)
{
    uint64_t best = ~0ull;
    for (int i = 0; i < 3; i++) {
        uint64_t before = read_tsc();
        uint64_t t = monotonic_ns();
        uint64_t after = read_tsc();
        if (after - before < best) {
            best = after - before;
            *tsc = before + (after - before) / 2;
            *ns = t;
        }
    }
}

/* The second pair, at least GS_CALIBRATE_NS after the first: gostat
 * divides the differences to turn ticks into nanoseconds. */
static void finish_calibration(struct gs_header *hdr)
{
    do
        clock_pair(&hdr->tsc1, &hdr->mono1_ns);
    while (hdr->mono1_ns - hdr->mono0_ns < GS_CALIBRATE_NS);
}

static void read_boot_id(char *buf)
{
    long fd = gs_syscall6(GS_SYS_openat, GS_AT_FDCWD, (long)"/proc/sys/kernel/random/boot_id",
                          GS_O_RDONLY | GS_O_CLOEXEC, 0, 0, 0);
    long n = fd < 0 ? 0 : gs_syscall3(GS_SYS_read, fd, buf, GS_BOOTID_MAX - 1);
    if (fd >= 0)
        gs_syscall3(GS_SYS_close, fd, 0, 0);
    if (n < 0)
        n = 0;
    while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == 0))
        n--;
    buf[n] = 0;
}

static void report(const struct startup_env *env, const char *msg)
{
    if (!env->quiet)
        gs_syscall3(GS_SYS_write, 2, msg, gs_str_len(msg));
}

/* The goroutines' timing stacks: one range of address space, GS_SLOT_SIZE
 * per stack and aligned to it (g.racectx keeps a stack's address >>
 * GS_SLOT_SHIFT), reserved without commit charge: a page costs memory only
 * once a goroutine's timed calls nest that deep. Where the kernel refuses
 * that much address space (vm.overcommit_memory=2), fewer stacks. Returns
 * how many, with *base the first. */
static uint64_t map_timing_stacks(uint64_t want, uint64_t *base)
{
    for (uint64_t n = want; n >= 64; n /= 2) {
        uint64_t size = (n + 1) * (uint64_t)GS_SLOT_SIZE;
        long p = gs_syscall6(GS_SYS_mmap, 0, (long)size, GS_PROT_READ | GS_PROT_WRITE,
                             GS_MAP_PRIVATE | GS_MAP_ANONYMOUS | GS_MAP_NORESERVE, -1, 0);
        if (p < 0 && p > -4096)
            continue;
        *base = ((uint64_t)p + GS_SLOT_SIZE - 1) & ~(uint64_t)(GS_SLOT_SIZE - 1);
        return n;
    }
    return 0;
}

/* Tracing (--trace): the goroutines' pending records, one range beside
 * the timing stacks (reserved without commit charge: a page costs memory
 * once calls nest that deep), and the --trace-slower-than bound in ticks. */
static void start_tracing(struct gs_private *priv, const struct gs_header *hdr)
{
    uint64_t n = gs_config.trace_nslots < priv->slots_max ? gs_config.trace_nslots : priv->slots_max;
    if (!n || !gs_config.trace_slot)
        return;
    for (; n >= 64; n /= 2) {
        long p = gs_syscall6(GS_SYS_mmap, 0, (long)(n * gs_config.trace_slot), GS_PROT_READ | GS_PROT_WRITE,
                             GS_MAP_PRIVATE | GS_MAP_ANONYMOUS | GS_MAP_NORESERVE, -1, 0);
        if (p < 0 && p > -4096)
            continue;
        priv->trace_base = (uint64_t)p;
        priv->trace_slots = n;
        break;
    }
    uint64_t dt = hdr->tsc1 - hdr->tsc0, dns = hdr->mono1_ns - hdr->mono0_ns;
    if (gs_config.trace_min_ns && dns)   /* longer than: at least one tick more */
        priv->trace_min = (gs_config.trace_min_ns < UINT64_MAX / dt ? gs_config.trace_min_ns * dt / dns
                                                                    : gs_config.trace_min_ns / dns * dt) + 1;
}

/* Timing needs an invariant TSC and timing stacks; without them the
 * trampolines find no stack for any goroutine and only count. */
static void start_timing(const struct startup_env *env, struct gs_private *priv, uint8_t *rw,
                         struct gs_header *hdr)
{
    if (!gs_config.nslots)
        return;
    if (!tsc_is_invariant()) {
        hdr->flags |= GS_HDR_NO_TSC;
        report(env, "gostat: this CPU has no invariant TSC; timing is off, counting only\n");
        return;
    }
    (void)rw;
    priv->slots_max = map_timing_stacks(gs_config.nslots, &priv->slots_base);
    if (!priv->slots_max)
        report(env, "gostat: no address space for timing stacks (RLIMIT_AS?); timing is off, "
                    "counting only\n");
    else
        gs_measure_probe_cost(priv, hdr);
    read_boot_id(hdr->boot_id);
    finish_calibration(hdr);
    if (priv->slots_max)
        start_tracing(priv, hdr);
}

/* --count-only keeping goroutine sites: their ages and lifetimes are
 * TSC ticks too. */
static void calibrate_for_sites(struct gs_header *hdr)
{
    if (!tsc_is_invariant()) {
        hdr->flags |= GS_HDR_NO_TSC;
        return;
    }
    read_boot_id(hdr->boot_id);
    finish_calibration(hdr);
}

static const char *base_name(const char *path)
{
    const char *b = path;
    for (; *path; path++)
        if (*path == '/')
            b = path + 1;
    return b;
}

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    return x ^ (x >> 31);
}

/* 64 bits another user cannot guess: getrandom, or (kernels without it)
 * the kernel's AT_RANDOM bytes mixed with the TSC. */
static uint64_t random_u64(const struct startup_env *env)
{
    uint64_t v = 0;
    if (gs_syscall3(GS_SYS_getrandom, &v, sizeof v, GS_GRND_NONBLOCK) == (long)sizeof v)
        return v;
    if (env->at_random)
        gs_mem_copy(&v, env->at_random + 8, sizeof v);
    return mix64(v ^ mix64(read_tsc()));
}

/* dir/gostat.<exe>.<pid>, and from the second attempt on a random suffix.
 * Returns -GS_ENAMETOOLONG when it does not fit: never a shortened path. */
static long stats_path(const struct startup_env *env, const char *exe, int64_t pid,
                       unsigned attempt, char *path, size_t cap)
{
    size_t len = 0;
    path[0] = 0;
    int cut = gs_append_str(path, &len, cap, env->dir);
    cut |= gs_append_str(path, &len, cap, "/" GS_FILE_PREFIX);
    cut |= gs_append_safe_name(path, &len, cap, base_name(exe));
    cut |= gs_append_str(path, &len, cap, ".");
    cut |= gs_append_u64(path, &len, cap, (uint64_t)pid);
    if (attempt) {
        cut |= gs_append_str(path, &len, cap, ".");
        cut |= gs_append_hex64(path, &len, cap, random_u64(env));
    }
    if (!cut)
        return 0;
    path[0] = 0;
    return -GS_ENAMETOOLONG;
}

/* Creates the stats file: a stale file left by an earlier process with the
 * same pid, or a name another user planted, is never reused. After the
 * first collision the names are random, so planting them all is futile. */
static long create_stats_file(const struct startup_env *env, const char *exe,
                              int64_t pid, char *path, size_t cap)
{
    long fd = -GS_EEXIST;
    for (unsigned attempt = 0; attempt < 8 && fd == -GS_EEXIST; attempt++) {
        long rc = stats_path(env, exe, pid, attempt, path, cap);
        if (rc < 0)
            return rc;
        fd = gs_syscall6(GS_SYS_openat, GS_AT_FDCWD, (long)path,
                         GS_O_RDWR | GS_O_CREAT | GS_O_EXCL | GS_O_NOFOLLOW | GS_O_CLOEXEC,
                         0600, 0, 0);
    }
    return fd;
}

/* Copies the read-only prefix image (in our own, never written, mapping of
 * the executable) into the file a chunk at a time, dropping each chunk's
 * whole pages from our page tables once written: pwrite faults them in,
 * and nothing here reads them again (the file holds the copy). A page read
 * later would be faulted back from the executable. Saves the image's size
 * in resident memory: 6.5 MB for Debian's Prometheus
 * (docs/benchmarks/history.md, "Memory"). */
static int write_image(long fd, const uint8_t *p, uint64_t len, uint64_t off)
{
    const uint64_t chunk = 64 * GS_PAGE;
    while (len) {
        uint64_t n = len < chunk ? len : chunk;
        long rc = gs_write_all(fd, p, n, off);
        if (rc < 0)
            return (int)rc;
        uint64_t first = ((uint64_t)p + GS_PAGE - 1) & ~(uint64_t)(GS_PAGE - 1);
        uint64_t end = ((uint64_t)p + n) & ~(uint64_t)(GS_PAGE - 1);
        if (end > first)
            gs_syscall3(GS_SYS_madvise, (long)first, (long)(end - first), GS_MADV_DONTNEED);
        p += n;
        len -= n;
        off += n;
    }
    return 0;
}

/* Marks the image's whole pages MADV_RANDOM, which makes them a mapping
 * of their own: the kernel's fault-around (a fault maps the cached pages
 * around it, within its mapping) then no longer maps them back when the
 * trampolines right before them run. */
static void keep_apart(const uint8_t *p, uint64_t len)
{
    uint64_t first = ((uint64_t)p + GS_PAGE - 1) & ~(uint64_t)(GS_PAGE - 1);
    uint64_t end = ((uint64_t)p + len) & ~(uint64_t)(GS_PAGE - 1);
    if (end > first)
        gs_syscall3(GS_SYS_madvise, (long)first, (long)(end - first), GS_MADV_RANDOM);
}

/* Writes n zero bytes at off: for file systems without fallocate. */
static long zero_fill(long fd, uint64_t off, uint64_t n)
{
    uint64_t zeros[64];
    for (unsigned i = 0; i < 64; i++)
        ((volatile uint64_t *)zeros)[i] = 0;   /* volatile: no memset call */
    while (n) {
        uint64_t len = n < sizeof zeros ? n : sizeof zeros;
        long rc = gs_write_all(fd, zeros, len, off);
        if (rc < 0)
            return rc;
        off += len;
        n -= len;
    }
    return 0;
}

/* Gives the file real blocks now for everything the program writes before
 * or without a row of its own: header and tables, the live page and the
 * shared row 0. Those pages are written through the MAP_SHARED mapping,
 * where a full file system cannot answer ENOSPC: the kernel raises SIGBUS
 * and the program dies. Reserving them here makes "full" an error that
 * start-up handles (unlink, count in memory, one line on stderr). Rows
 * 1.. are populated by the thread that claims them. */
static long reserve_range(long fd, uint64_t off, uint64_t len)
{
    long rc = gs_syscall6(GS_SYS_fallocate, fd, 0, (long)off, (long)len, 0, 0);
    if (rc != -GS_EOPNOTSUPP)
        return rc;
    return zero_fill(fd, off, len);
}

static long reserve_eager_pages(long fd, const struct gs_header *hdr)
{
    /* row 0 holds no timing: its head is all of it that is ever touched */
    uint64_t len = hdr->rows_off + (hdr->timing_off ? hdr->timing_off : hdr->row_stride);
    long rc = reserve_range(fd, hdr->live_off, len - hdr->live_off);
    if (rc < 0 || !(hdr->flags & GS_HDR_SITES))
        return rc;
    /* the goroutine sites: written by every thread */
    return reserve_range(fd, hdr->sites_off, hdr->file_size - hdr->sites_off);
}

/* Every thread counts in the shared row 0: claims find no row left. */
static void no_thread_rows(struct gs_private *priv, struct gs_live *live)
{
    priv->rows_claimed = live->rows_claimed = gs_config.max_rows;
}

/* The rows and the goroutine sites: one range of address space anywhere
 * (no rel32 reach needed: the routines find a row through rows_base and
 * fs:[0] or m.tls), reserved without commit charge and replaced by the
 * file's pages once the file exists (fill_stats_file). Row 0 is in it as
 * in the file, beside the segment's own row 0 that the trampolines count
 * into: the file maps both to the same pages. Without the range, every
 * thread counts in row 0 and nothing is timed. */
static void map_rows(const struct startup_env *env, struct gs_private *priv, uint8_t *shared)
{
    long p = gs_syscall6(GS_SYS_mmap, 0, (long)gs_config.rows_size, GS_PROT_READ | GS_PROT_WRITE,
                         GS_MAP_PRIVATE | GS_MAP_ANONYMOUS | GS_MAP_NORESERVE, -1, 0);
    if (p < 0 && p > -4096) {
        priv->rows_base = (uint64_t)(shared + GS_PAGE);
        no_thread_rows(priv, (struct gs_live *)shared);
        report(env, "gostat: no address space for the counter rows (RLIMIT_AS?); counting in one "
                    "shared row, nothing timed\n");
        return;
    }
    priv->rows_base = (uint64_t)p;
    if (gs_config.sites_off)
        priv->sites_base = (uint64_t)p + gs_config.sites_off - 2 * GS_PAGE;
}

/* Writes the prefix with the run-time header fields (the image, then the
 * program's own function names when the image leaves them out: the
 * program's read-only memory, dropped from our page tables as the image
 * is), maps the shared part of the RW segment onto the file, and only then
 * writes the magic. */
static long fill_stats_file(long fd, const uint8_t *image, uint64_t image_size,
                            const struct gs_header *hdr, uint8_t *shared, uint64_t shared_size)
{
    const uint8_t *names = __blob_start + gs_config.names_rel;
    long rc;
    if ((rc = gs_syscall3(GS_SYS_ftruncate, fd, hdr->file_size, 0)) < 0)
        return rc;
    if ((rc = reserve_eager_pages(fd, hdr)) < 0)
        return rc;
    if ((rc = gs_write_all(fd, (const uint8_t *)hdr + GS_MAGIC_LEN,
                        sizeof *hdr - GS_MAGIC_LEN, GS_MAGIC_LEN)) < 0)
        return rc;
    if ((rc = write_image(fd, image + sizeof *hdr, image_size - sizeof *hdr, sizeof *hdr)) < 0)
        return rc;
    keep_apart(image, image_size);
    if (gs_config.names_size && (rc = write_image(fd, names, gs_config.names_size, image_size)) < 0)
        return rc;
    rc = gs_syscall6(GS_SYS_mmap, (long)shared, (long)shared_size, GS_PROT_READ | GS_PROT_WRITE,
                     GS_MAP_SHARED | GS_MAP_FIXED, fd, (long)hdr->live_off);
    if (rc < 0)
        return rc;
    struct gs_private *priv = (struct gs_private *)(shared - GS_PAGE);
    if (priv->rows_base != (uint64_t)(shared + GS_PAGE)) {   /* the rows' own mapping */
        rc = gs_syscall6(GS_SYS_mmap, (long)priv->rows_base, (long)gs_config.rows_size,
                         GS_PROT_READ | GS_PROT_WRITE, GS_MAP_SHARED | GS_MAP_FIXED, fd, (long)hdr->rows_off);
        if (rc < 0)
            return rc;
    } else {
        no_thread_rows(priv, (struct gs_live *)shared);
    }
    return gs_write_all(fd, GS_MAGIC, GS_MAGIC_LEN, 0);
}

static const char *errno_name(long e)
{
    switch (e) {
    case 2: return "no such file or directory";
    case 13: return "permission denied";
    case 17: return "file exists";
    case 20: return "not a directory";
    case 24: return "too many open files";
    case 28: return "no space left on device";
    case 30: return "read-only file system";
    case 36: return "file name too long";
    case 40: return "too many symbolic links";
    case 122: return "disk quota exceeded";
    default: return "system error";
    }
}

static void report_failure(const struct startup_env *env, const char *path, long rc)
{
    if (env->quiet)
        return;
    char line[GS_PATH_MAX + 200];
    size_t len = 0;
    gs_append_str(line, &len, sizeof line, "gostat: cannot create stats file ");
    if (rc == -GS_ENAMETOOLONG && !path[0]) {
        gs_append_str(line, &len, sizeof line, "in ");
        gs_append_str(line, &len, sizeof line, env->secure ? "/dev/shm" : "$GOSTAT_DIR");
    } else {
        gs_append_str(line, &len, sizeof line, path);
    }
    gs_append_str(line, &len, sizeof line, ": ");
    gs_append_str(line, &len, sizeof line, errno_name(-rc));
    gs_append_str(line, &len, sizeof line, " (errno ");
    gs_append_u64(line, &len, sizeof line, (uint64_t)-rc);
    gs_append_str(line, &len, sizeof line, "); counting in memory only");
    gs_append_str(line, &len, sizeof line, env->secure ? "\n" : " (GOSTAT_QUIET=1 hides this)\n");
    gs_syscall3(GS_SYS_write, 2, line, len);
}

/* What gs_finish (stubs/finish.c) needs at exit: the own file, found
 * again by name and checked by inode, and GOSTAT_MERGE. */
static void prepare_finish(const struct startup_env *env, struct gs_private *priv, long fd, const char *path,
                           const struct gs_header *hdr)
{
    const char *exe = hdr->exe;
    struct gs_stat st;
    uint64_t size = (sizeof(struct gs_finish_info) + GS_PAGE - 1) & ~(uint64_t)(GS_PAGE - 1);
    if (gs_syscall3(GS_SYS_fstat, fd, &st, 0) < 0)
        return;
    long p = gs_syscall6(GS_SYS_mmap, 0, (long)size, GS_PROT_READ | GS_PROT_WRITE,
                         GS_MAP_PRIVATE | GS_MAP_ANONYMOUS, -1, 0);
    if (p < 0 && p > -4096)
        return;
    struct gs_finish_info *in = (struct gs_finish_info *)p;
    in->dev = st.dev;
    in->ino = st.ino;
    in->header = *hdr;
    in->quiet = (uint32_t)env->quiet;
    size_t len = 0;
    gs_append_str(in->own, &len, sizeof in->own, path);
    for (size_t i = 0; i < len; i++)
        if (path[i] == '/')
            in->dir = (uint32_t)i;
    char name[GS_PATH_MAX];
    size_t name_len = 0;
    gs_append_safe_name(name, &name_len, sizeof name, base_name(exe));
    in->stem = (uint32_t)(in->dir + 1 + sizeof GS_FILE_PREFIX - 1 + name_len + 1);   /* dir/gostat.<exe>. */
    len = 0;
    if (env->merge && gs_append_str(in->merge, &len, sizeof in->merge, env->merge) < 0)
        in->merge[0] = 0;
    priv->finish = (uint64_t)in;
}

/* Called from gs_entry with the kernel's initial stack; returns the
 * address of the program's own entry point. */
__attribute__((used)) uint64_t gs_startup(uint64_t *kernel_sp)
{
    const uint8_t *blob = __blob_start;
    const uint8_t *image = blob + gs_config.image_rel;
    uint8_t *rw = (uint8_t *)blob + gs_config.rw_rel;
    struct gs_private *priv = (struct gs_private *)rw;
    uint8_t *shared = rw + GS_PAGE;

    priv->load_bias = (uint64_t)blob - gs_config.blob_link_addr;

    struct startup_env env;
    char **argv = (char **)(kernel_sp + 1);
    read_env(argv + kernel_sp[0] + 1, &env);
    map_rows(&env, priv, shared);

    struct gs_header hdr;
    gs_mem_copy(&hdr, image, sizeof hdr);
    clock_pair(&hdr.tsc0, &hdr.mono0_ns);
    hdr.pid = gs_syscall3(GS_SYS_getpid, 0, 0, 0);
    hdr.start_time_ns = realtime_ns();
    hdr.proc_start_ticks = proc_start_ticks();
    hdr.load_bias = (uint64_t)blob - gs_config.blob_link_addr;
    hdr.flags |= GS_HDR_SHARED;
    long n = gs_syscall3(GS_SYS_readlink, "/proc/self/exe", hdr.exe, GS_EXE_MAX - 1);
    hdr.exe[n > 0 ? n : 0] = 0;
    if (n <= 0 && kernel_sp[0] > 0) {
        size_t len = 0;
        gs_append_str(hdr.exe, &len, GS_EXE_MAX, argv[0]);
    }

    start_timing(&env, priv, rw, &hdr);
    if (!gs_config.nslots && gs_config.sites_off)
        calibrate_for_sites(&hdr);

    char path[GS_PATH_MAX];
    long fd = create_stats_file(&env, hdr.exe, hdr.pid, path, sizeof path);
    long rc = fd;
    if (fd >= 0) {
        gs_hold_read_lock(fd);   /* the shared mapping keeps it after close */
        rc = fill_stats_file(fd, image, gs_config.image_size, &hdr, shared, gs_config.shared_size);
        if (rc >= 0)
            prepare_finish(&env, priv, fd, path, &hdr);
        gs_syscall3(GS_SYS_close, fd, 0, 0);
        if (rc < 0)
            gs_syscall3(GS_SYS_unlink, path, 0, 0);
    }
    if (rc < 0)
        report_failure(&env, path, rc);
    return (uint64_t)(blob + gs_config.orig_entry_rel);
}
