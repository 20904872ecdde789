/*
 * powercut: a FUSE 3 file system that models what a power cut leaves of a folder.
 *
 * Usage: powercut BACKING STATE MOUNTPOINT [fuse options]   (KvBench passes -f -s)
 *
 * What it models. BACKING is the device: what survives a power cut. At mount, its tree is copied to STATE/live, and
 * every call on MOUNTPOINT passes through to that live copy, so processes see their own writes at once, as they see
 * the operating system's page cache. What is durable is tracked apart from it:
 *   - a file's content (data and size) is durable as of its last fsync or fdatasync, or of a write through a
 *     descriptor opened with O_SYNC or O_DSYNC (the write and everything before it); both keep the whole file: this
 *     models fdatasync as keeping the size too, which Linux does when the size changed;
 *   - a directory's entries (creates, renames, unlinks, links, mkdir and rmdir in it) are durable as of the
 *     directory's own fsync, and only then: an fsync of a new file keeps its data but not its name, and a rename is
 *     durable in the target directory only once that directory is flushed, in the source directory once that one is;
 *   - a new directory holds nothing durable until it is flushed itself, and is reachable only once its parent is.
 * Closing a file, sync_file_range, sync and syncfs keep nothing (the first three promise no durability; FUSE does
 * not pass on the last two). A write through a descriptor opened O_DIRECT is like any other: it bypasses the cache
 * but may still sit in the device's volatile cache, so only a flush keeps it. Modes and owners are not modelled: the
 * durable tree takes each file's latest ones. Times are not kept. Files and folders a caller creates belong to the
 * caller (its uid and gid), so servers that run as users of their own can use them after a remount.
 *
 * The cut. Writing "cut K S" to the control file MOUNTPOINT/.powercut (hidden from listings) is the power cut: of
 * the writes not yet flushed, in the order they were made over all files, the first K reach the device whole and
 * the first S 512-byte sectors of the next one too (a torn write); the rest is dropped, with every directory change
 * not flushed. BACKING is then rewritten to hold exactly the durable tree, and every later call fails with EIO, as
 * on a machine that is off. Reading the control file prints "pending N" (writes not flushed), "flushes N" and
 * "cut 0|1". KvBench kills the writing processes first, so nothing runs between their end and the cut. Writing
 * "sync" makes everything written so far durable, as a sync of the whole device would: a starting state.
 *
 * What it does not model: reordering of flushed writes (a flush keeps everything it covers, in full), metadata that
 * reaches the device without a flush, a directory reached from two durable parents (the first one walked wins),
 * symbolic links, device nodes and extended attributes (refused), sockets and FIFOs (made, never durable), and sizes
 * past what fits in memory.
 */
#define FUSE_USE_VERSION 31
#define _GNU_SOURCE

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <fuse.h>
#include <limits.h>
#include <search.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define CONTROL "/.powercut"
#define SECTOR 512

typedef struct {
    char *name;
    long id;
} entry;

/* One file or directory, by KvBench's own id: ids are never reused, inode numbers of the live copy are. */
typedef struct {
    int is_dir;
    /* Files: the smallest size a truncate left since the last flush, or -1. */
    off_t min_size;
    /* Files: fallocate or similar changed ranges the write log does not name. */
    int whole_dirty;
    /* Directories: the durable entries. */
    entry *entries;
    size_t entry_count;
    /* The latest mode and owner, which the durable tree takes; has_meta is 0 until they are known. */
    int has_meta;
    mode_t mode;
    uid_t uid;
    gid_t gid;
} node;

typedef struct {
    long id;
    off_t offset;
    size_t length;
    char *data;
    int flushed;
} pending_write;

typedef struct {
    ino_t ino;
    long id;
} ino_id;

typedef struct {
    int fd;
    long id;
    int sync;
} handle;

static char *g_backing, *g_state, *g_live, *g_inodes;
static node *g_nodes;
static long g_node_count, g_node_capacity;
static pending_write *g_log;
static size_t g_log_count, g_log_capacity, g_pending;
static long g_flushes;
static int g_cut;
static void *g_ino_ids;

static void fail(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    fprintf(stderr, "powercut: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, ": %s\n", strerror(errno));
    va_end(args);
    exit(1);
}

static void *grow(void *array, size_t *capacity, size_t count, size_t size)
{
    if (count < *capacity) {
        return array;
    }
    *capacity = *capacity ? *capacity * 2 : 64;
    void *grown = realloc(array, *capacity * size);
    if (!grown) {
        errno = ENOMEM;
        fail("out of memory");
    }
    return grown;
}

static char *live(const char *path)
{
    char *full;
    if (asprintf(&full, "%s%s", g_live, path) < 0) {
        fail("out of memory");
    }
    return full;
}

static char *inode_file(long id)
{
    char *full;
    if (asprintf(&full, "%s/%ld", g_inodes, id) < 0) {
        fail("out of memory");
    }
    return full;
}

static int compare_ino(const void *a, const void *b)
{
    ino_t x = ((const ino_id *)a)->ino, y = ((const ino_id *)b)->ino;
    return x < y ? -1 : x > y;
}

static long new_node(int is_dir)
{
    size_t capacity = (size_t)g_node_capacity;
    g_nodes = grow(g_nodes, &capacity, (size_t)g_node_count, sizeof(node));
    g_node_capacity = (long)capacity;
    long id = g_node_count++;
    g_nodes[id] = (node){ .is_dir = is_dir, .min_size = -1 };
    if (!is_dir) {
        /* A file's durable content starts empty: a name made durable before its data gives an empty file. */
        char *file = inode_file(id);
        int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (fd < 0) {
            fail("cannot create %s", file);
        }
        close(fd);
        free(file);
    }
    return id;
}

static void take_meta(long id, const struct stat *st)
{
    node *n = &g_nodes[id];
    n->has_meta = 1;
    n->mode = st->st_mode & 07777;
    n->uid = st->st_uid;
    n->gid = st->st_gid;
}

/* A file or folder a call created belongs to the caller, as on any file system; the live copy was made by this process. */
static void own_by_caller(const char *full)
{
    if (geteuid() == 0) {
        struct fuse_context *caller = fuse_get_context();
        (void)!lchown(full, caller->uid, caller->gid);
    }
}

static void own_handle_by_caller(int fd)
{
    if (geteuid() == 0) {
        struct fuse_context *caller = fuse_get_context();
        (void)!fchown(fd, caller->uid, caller->gid);
    }
}

static void forget_ino(ino_t ino)
{
    ino_id key = { .ino = ino };
    ino_id **found = tfind(&key, &g_ino_ids, compare_ino);
    if (found) {
        ino_id *gone = *found;
        tdelete(&key, &g_ino_ids, compare_ino);
        free(gone);
    }
}

static void remember_ino(ino_t ino, long id)
{
    forget_ino(ino);
    ino_id *pair = malloc(sizeof(ino_id));
    pair->ino = ino;
    pair->id = id;
    tsearch(pair, &g_ino_ids, compare_ino);
}

/* The id of what the live copy holds at st; a file made by none of our calls gets a new one. */
static long id_of(const struct stat *st)
{
    ino_id key = { .ino = st->st_ino };
    ino_id **found = tfind(&key, &g_ino_ids, compare_ino);
    if (found) {
        return (*found)->id;
    }
    long id = new_node(S_ISDIR(st->st_mode));
    take_meta(id, st);
    remember_ino(st->st_ino, id);
    return id;
}

static long id_of_path(const char *path)
{
    char *full = live(path);
    struct stat st;
    int result = lstat(full, &st);
    free(full);
    return result == 0 ? id_of(&st) : -1;
}

/* Before an unlink or a rename over a name: once its last name is gone the live inode number may come back. */
static void forget_if_last_name(const char *full)
{
    struct stat st;
    if (lstat(full, &st) == 0 && (S_ISDIR(st.st_mode) || st.st_nlink <= 1)) {
        forget_ino(st.st_ino);
    }
}

static void log_write(long id, off_t offset, const char *data, size_t length)
{
    g_log = grow(g_log, &g_log_capacity, g_log_count, sizeof(pending_write));
    char *copy = malloc(length ? length : 1);
    memcpy(copy, data, length);
    g_log[g_log_count++] = (pending_write){ .id = id, .offset = offset, .length = length, .data = copy };
    g_pending++;
}

static int copy_range(int from, int to, off_t offset, off_t length)
{
    char buffer[65536];
    while (length > 0) {
        ssize_t got = pread(from, buffer, length < (off_t)sizeof buffer ? (size_t)length : sizeof buffer, offset);
        if (got < 0) {
            return -errno;
        }
        if (got == 0) {
            break;
        }
        if (pwrite(to, buffer, (size_t)got, offset) != got) {
            return -EIO;
        }
        offset += got;
        length -= got;
    }
    return 0;
}

/* Flushed writes leave the log once they are most of it, so a flush stays proportional to what is pending. */
static void compact_log(void)
{
    if (g_pending * 2 > g_log_count) {
        return;
    }
    size_t kept = 0;
    for (size_t i = 0; i < g_log_count; i++) {
        if (!g_log[i].flushed) {
            g_log[kept++] = g_log[i];
        }
    }
    g_log_count = kept;
}

/* fsync, fdatasync, an O_SYNC or O_DSYNC write: the durable content of id becomes what live_fd holds now. */
static int flush_file(long id, int live_fd)
{
    struct stat st;
    if (fstat(live_fd, &st) != 0) {
        return -errno;
    }
    char *file = inode_file(id);
    int durable = open(file, O_WRONLY);
    free(file);
    if (durable < 0) {
        return -errno;
    }
    int result = 0;
    node *n = &g_nodes[id];
    if (n->whole_dirty) {
        result = ftruncate(durable, 0) == 0 ? copy_range(live_fd, durable, 0, st.st_size) : -errno;
    } else {
        if (n->min_size >= 0 && ftruncate(durable, n->min_size) != 0) {
            result = -errno;
        }
        for (size_t i = 0; i < g_log_count && result == 0; i++) {
            pending_write *w = &g_log[i];
            if (!w->flushed && w->id == id) {
                result = copy_range(live_fd, durable, w->offset, (off_t)w->length);
            }
        }
    }
    if (result == 0 && ftruncate(durable, st.st_size) != 0) {
        result = -errno;
    }
    if (result == 0) {
        for (size_t i = 0; i < g_log_count; i++) {
            pending_write *w = &g_log[i];
            if (!w->flushed && w->id == id) {
                w->flushed = 1;
                free(w->data);
                w->data = NULL;
                g_pending--;
            }
        }
        n->min_size = -1;
        n->whole_dirty = 0;
        g_flushes++;
        compact_log();
    }
    close(durable);
    return result;
}

/* A directory's fsync: its durable entries become its live ones. */
static int flush_directory(int dir_fd)
{
    struct stat st;
    if (fstat(dir_fd, &st) != 0) {
        return -errno;
    }
    long dir = id_of(&st);
    DIR *d = fdopendir(dup(dir_fd));
    if (!d) {
        return -errno;
    }
    rewinddir(d);
    entry *entries = NULL;
    size_t count = 0, capacity = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        struct stat child;
        if (fstatat(dirfd(d), e->d_name, &child, AT_SYMLINK_NOFOLLOW) != 0
            || !(S_ISREG(child.st_mode) || S_ISDIR(child.st_mode))) {
            /* A socket or FIFO names no data: as after a reboot, none is durable. */
            continue;
        }
        entries = grow(entries, &capacity, count, sizeof(entry));
        entries[count++] = (entry){ .name = strdup(e->d_name), .id = id_of(&child) };
    }
    closedir(d);
    node *n = &g_nodes[dir];
    for (size_t i = 0; i < n->entry_count; i++) {
        free(n->entries[i].name);
    }
    free(n->entries);
    n->entries = entries;
    n->entry_count = count;
    g_flushes++;
    return 0;
}

static void copy_file(const char *from, const char *to, mode_t mode)
{
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_TRUNC, mode & 07777);
    if (in < 0 || out < 0) {
        fail("cannot copy %s to %s", from, to);
    }
    struct stat st;
    fstat(in, &st);
    if (copy_range(in, out, 0, st.st_size) != 0) {
        fail("cannot copy %s", from);
    }
    close(in);
    close(out);
}

/* Mount: the backing tree is durable as it stands, and the live copy starts equal to it. */
static void load(const char *backing, const char *live_dir, long dir)
{
    DIR *d = opendir(backing);
    if (!d) {
        fail("cannot read %s", backing);
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        char *from, *to;
        if (asprintf(&from, "%s/%s", backing, e->d_name) < 0 || asprintf(&to, "%s/%s", live_dir, e->d_name) < 0) {
            fail("out of memory");
        }
        struct stat st;
        if (lstat(from, &st) != 0) {
            fail("cannot stat %s", from);
        }
        long id;
        if (S_ISDIR(st.st_mode)) {
            if (mkdir(to, st.st_mode & 07777) != 0) {
                fail("cannot create %s", to);
            }
            id = new_node(1);
            load(from, to, id);
        } else if (S_ISREG(st.st_mode)) {
            copy_file(from, to, st.st_mode);
            id = new_node(0);
            char *file = inode_file(id);
            copy_file(from, file, st.st_mode);
            free(file);
        } else {
            errno = EINVAL;
            fail("%s is neither a file nor a folder", from);
        }
        /* The live copy belongs to whoever owns the durable file, with its mode (mkdir and open apply no umask here). */
        (void)!lchown(to, st.st_uid, st.st_gid);
        chmod(to, st.st_mode & 07777);
        take_meta(id, &st);
        struct stat copied;
        lstat(to, &copied);
        remember_ino(copied.st_ino, id);
        node *n = &g_nodes[dir];
        size_t capacity = n->entry_count;
        n->entries = grow(n->entries, &capacity, n->entry_count, sizeof(entry));
        n->entries[n->entry_count++] = (entry){ .name = strdup(e->d_name), .id = id };
        free(from);
        free(to);
    }
    closedir(d);
}

static int remove_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)st;
    (void)type;
    return ftw->level == 0 ? 0 : remove(path);
}

static void restore_meta(const char *path, long id)
{
    node *n = &g_nodes[id];
    if (n->has_meta) {
        (void)!lchown(path, n->uid, n->gid);
        chmod(path, n->mode);
    }
}

static void materialize(const char *path, long dir, char *visited)
{
    visited[dir] = 1;
    node *n = &g_nodes[dir];
    for (size_t i = 0; i < n->entry_count; i++) {
        entry *e = &n->entries[i];
        char *to;
        if (asprintf(&to, "%s/%s", path, e->name) < 0) {
            fail("out of memory");
        }
        if (g_nodes[e->id].is_dir) {
            if (!visited[e->id]) {
                if (mkdir(to, 0755) != 0) {
                    fail("cannot create %s", to);
                }
                materialize(to, e->id, visited);
                restore_meta(to, e->id);
            }
        } else {
            char *file = inode_file(e->id);
            if (link(file, to) != 0) {
                struct stat st;
                stat(file, &st);
                copy_file(file, to, st.st_mode);
            }
            restore_meta(to, e->id);
            free(file);
        }
        free(to);
    }
}

/* The power cut: K pending writes and S sectors of the next reach the device, BACKING becomes the durable tree. */
static int cut(long keep, long sectors)
{
    long kept = 0;
    for (size_t i = 0; i < g_log_count; i++) {
        pending_write *w = &g_log[i];
        if (w->flushed) {
            continue;
        }
        size_t length = kept < keep ? w->length : (size_t)sectors * SECTOR;
        if (length > w->length) {
            length = w->length;
        }
        if (length > 0) {
            char *file = inode_file(w->id);
            int fd = open(file, O_WRONLY);
            free(file);
            if (fd < 0 || pwrite(fd, w->data, length, w->offset) != (ssize_t)length) {
                return -EIO;
            }
            close(fd);
        }
        if (kept++ >= keep) {
            break;
        }
    }
    if (nftw(g_backing, remove_one, 16, FTW_DEPTH | FTW_PHYS) != 0) {
        return -EIO;
    }
    char *visited = calloc((size_t)g_node_count, 1);
    materialize(g_backing, 0, visited);
    free(visited);
    g_cut = 1;
    return 0;
}

static int g_sync_result;

static int flush_one(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
    (void)ftw;
    if (type != FTW_D && !(type == FTW_F && S_ISREG(st->st_mode))) {
        return 0;
    }
    int fd = open(path, type == FTW_D ? O_RDONLY | O_DIRECTORY : O_RDONLY);
    if (fd < 0) {
        g_sync_result = -errno;
        return 1;
    }
    g_sync_result = type == FTW_D ? flush_directory(fd) : flush_file(id_of(st), fd);
    close(fd);
    return g_sync_result != 0;
}

/* "sync": every file's content and every folder's entries become durable, as after a sync of the whole device. */
static int sync_all(void)
{
    g_sync_result = 0;
    if (nftw(g_live, flush_one, 16, FTW_PHYS) != 0 && g_sync_result == 0) {
        return -EIO;
    }
    return g_sync_result;
}

/* The control file's handle: with nullpath_ok, reads and writes on a handle come without a path. */
static handle g_control = { .fd = -1, .id = -1 };

static int is_control(const char *path)
{
    return path && strcmp(path, CONTROL) == 0;
}

static int is_control_handle(const char *path, struct fuse_file_info *fi)
{
    return is_control(path) || (fi && fi->fh == (uint64_t)(uintptr_t)&g_control);
}

#define REFUSE_AFTER_CUT \
    if (g_cut) { \
        return -EIO; \
    }

static void *pc_init(struct fuse_conn_info *conn, struct fuse_config *cfg)
{
    /* Every write must reach this process when it is made, not when the kernel writes its cache back. */
    conn->want &= ~FUSE_CAP_WRITEBACK_CACHE;
    cfg->use_ino = 1;
    cfg->hard_remove = 1;
    cfg->nullpath_ok = 1;
    cfg->entry_timeout = 0;
    cfg->attr_timeout = 0;
    cfg->negative_timeout = 0;
    return NULL;
}

static int pc_getattr(const char *path, struct stat *st, struct fuse_file_info *fi)
{
    if (is_control_handle(path, fi)) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFREG | 0600;
        st->st_nlink = 1;
        st->st_size = 4096;
        return 0;
    }
    REFUSE_AFTER_CUT
    int result;
    if (fi && fi->fh) {
        result = fstat(((handle *)fi->fh)->fd, st);
    } else {
        char *full = live(path);
        result = lstat(full, st);
        free(full);
    }
    return result == 0 ? 0 : -errno;
}

/* Directories are held open by descriptor: with nullpath_ok, listing and flushing one come without a path. */
static int pc_opendir(const char *path, struct fuse_file_info *fi)
{
    REFUSE_AFTER_CUT
    char *full = live(path);
    int fd = open(full, O_RDONLY | O_DIRECTORY);
    free(full);
    if (fd < 0) {
        return -errno;
    }
    fi->fh = (uint64_t)fd;
    return 0;
}

static int pc_releasedir(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    close((int)fi->fh);
    return 0;
}

static int pc_readdir(const char *path, void *buffer, fuse_fill_dir_t fill, off_t offset, struct fuse_file_info *fi,
                      enum fuse_readdir_flags flags)
{
    (void)path;
    (void)offset;
    (void)flags;
    REFUSE_AFTER_CUT
    DIR *d = fdopendir(dup((int)fi->fh));
    if (!d) {
        return -errno;
    }
    rewinddir(d);
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        struct stat st = { .st_ino = e->d_ino, .st_mode = (mode_t)DTTOIF(e->d_type) };
        if (fill(buffer, e->d_name, &st, 0, 0)) {
            break;
        }
    }
    closedir(d);
    return 0;
}

static int pc_mkdir(const char *path, mode_t mode)
{
    REFUSE_AFTER_CUT
    char *full = live(path);
    int result = mkdir(full, mode) == 0 ? 0 : -errno;
    if (result == 0) {
        own_by_caller(full);
        struct stat st;
        lstat(full, &st);
        long id = new_node(1);
        take_meta(id, &st);
        remember_ino(st.st_ino, id);
    }
    free(full);
    return result;
}

/* Sockets and FIFOs only (a server binds its socket in its data directory): live, never durable. */
static int pc_mknod(const char *path, mode_t mode, dev_t device)
{
    REFUSE_AFTER_CUT
    if (!S_ISSOCK(mode) && !S_ISFIFO(mode)) {
        return -EPERM;
    }
    char *full = live(path);
    int result = mknod(full, mode, device) == 0 ? 0 : -errno;
    if (result == 0) {
        own_by_caller(full);
    }
    free(full);
    return result;
}

static int pc_unlink(const char *path)
{
    REFUSE_AFTER_CUT
    char *full = live(path);
    forget_if_last_name(full);
    int result = unlink(full) == 0 ? 0 : -errno;
    free(full);
    return result;
}

static int pc_rmdir(const char *path)
{
    REFUSE_AFTER_CUT
    char *full = live(path);
    struct stat st;
    int had = lstat(full, &st) == 0;
    int result = rmdir(full) == 0 ? 0 : -errno;
    if (result == 0 && had) {
        forget_ino(st.st_ino);
    }
    free(full);
    return result;
}

static int pc_rename(const char *from, const char *to, unsigned int flags)
{
    REFUSE_AFTER_CUT
    if (flags & ~RENAME_NOREPLACE) {
        return -EINVAL;
    }
    char *full_from = live(from), *full_to = live(to);
    struct stat source, target;
    int replaces = lstat(full_to, &target) == 0 && lstat(full_from, &source) == 0 && source.st_ino != target.st_ino;
    if (replaces && !(flags & RENAME_NOREPLACE)) {
        forget_if_last_name(full_to);
    }
    int result = renameat2(AT_FDCWD, full_from, AT_FDCWD, full_to, flags) == 0 ? 0 : -errno;
    free(full_from);
    free(full_to);
    return result;
}

static int pc_link(const char *from, const char *to)
{
    REFUSE_AFTER_CUT
    char *full_from = live(from), *full_to = live(to);
    int result = link(full_from, full_to) == 0 ? 0 : -errno;
    free(full_from);
    free(full_to);
    return result;
}

/* After a chmod or chown: the durable tree takes the new mode and owner. */
static int meta_changed(int fd, const char *full)
{
    struct stat st;
    if ((fd >= 0 ? fstat(fd, &st) : lstat(full, &st)) != 0) {
        return -errno;
    }
    take_meta(id_of(&st), &st);
    return 0;
}

static int pc_chmod(const char *path, mode_t mode, struct fuse_file_info *fi)
{
    REFUSE_AFTER_CUT
    if (fi && fi->fh) {
        handle *h = (handle *)fi->fh;
        return fchmod(h->fd, mode) == 0 ? meta_changed(h->fd, NULL) : -errno;
    }
    char *full = live(path);
    int result = chmod(full, mode) == 0 ? meta_changed(-1, full) : -errno;
    free(full);
    return result;
}

static int pc_chown(const char *path, uid_t uid, gid_t gid, struct fuse_file_info *fi)
{
    REFUSE_AFTER_CUT
    if (fi && fi->fh) {
        handle *h = (handle *)fi->fh;
        return fchown(h->fd, uid, gid) == 0 ? meta_changed(h->fd, NULL) : -errno;
    }
    char *full = live(path);
    int result = lchown(full, uid, gid) == 0 ? meta_changed(-1, full) : -errno;
    free(full);
    return result;
}

static void truncated(long id, off_t size)
{
    node *n = &g_nodes[id];
    if (n->min_size < 0 || size < n->min_size) {
        n->min_size = size;
    }
}

static int pc_truncate(const char *path, off_t size, struct fuse_file_info *fi)
{
    if (is_control_handle(path, fi)) {
        return 0;
    }
    REFUSE_AFTER_CUT
    if (fi && fi->fh) {
        handle *h = (handle *)fi->fh;
        if (ftruncate(h->fd, size) != 0) {
            return -errno;
        }
        truncated(h->id, size);
        return 0;
    }
    char *full = live(path);
    int result = truncate(full, size) == 0 ? 0 : -errno;
    free(full);
    if (result == 0) {
        truncated(id_of_path(path), size);
    }
    return result;
}

static int pc_utimens(const char *path, const struct timespec times[2], struct fuse_file_info *fi)
{
    if (is_control_handle(path, fi)) {
        return 0;
    }
    REFUSE_AFTER_CUT
    if (fi && fi->fh) {
        return futimens(((handle *)fi->fh)->fd, times) == 0 ? 0 : -errno;
    }
    char *full = live(path);
    int result = utimensat(AT_FDCWD, full, times, AT_SYMLINK_NOFOLLOW) == 0 ? 0 : -errno;
    free(full);
    return result;
}

static int open_handle(const char *path, int flags, mode_t mode, struct fuse_file_info *fi)
{
    char *full = live(path);
    /* A flush reads the live file, so it is opened for reading too; the kernel places appends itself, and the
       durability O_SYNC and O_DSYNC ask for is this file system's to give, not the live copy's. */
    int own = (flags & ~(O_ACCMODE | O_APPEND | O_SYNC | O_DSYNC | O_DIRECT)) | ((flags & O_ACCMODE) == O_RDONLY ? O_RDONLY : O_RDWR);
    struct stat before;
    int created = (flags & O_CREAT) && lstat(full, &before) != 0;
    int fd = open(full, own, mode);
    free(full);
    if (fd < 0) {
        return -errno;
    }
    if (created) {
        own_handle_by_caller(fd);
    }
    struct stat st;
    fstat(fd, &st);
    handle *h = malloc(sizeof(handle));
    h->fd = fd;
    h->id = id_of(&st);
    if (created) {
        take_meta(h->id, &st);
    }
    h->sync = (flags & O_DSYNC) != 0;
    if (flags & O_TRUNC) {
        truncated(h->id, 0);
    }
    fi->fh = (uint64_t)(uintptr_t)h;
    return 0;
}

static int pc_create(const char *path, mode_t mode, struct fuse_file_info *fi)
{
    REFUSE_AFTER_CUT
    return open_handle(path, fi->flags | O_CREAT, mode, fi);
}

static int pc_open(const char *path, struct fuse_file_info *fi)
{
    if (is_control(path)) {
        fi->direct_io = 1;
        fi->fh = (uint64_t)(uintptr_t)&g_control;
        return 0;
    }
    REFUSE_AFTER_CUT
    return open_handle(path, fi->flags, 0, fi);
}

static int pc_read(const char *path, char *buffer, size_t size, off_t offset, struct fuse_file_info *fi)
{
    if (is_control_handle(path, fi)) {
        char status[256];
        int length = snprintf(status, sizeof status, "pending %zu\nflushes %ld\ncut %d\n", g_pending, g_flushes, g_cut);
        if (offset >= length) {
            return 0;
        }
        size_t count = (size_t)(length - offset) < size ? (size_t)(length - offset) : size;
        memcpy(buffer, status + offset, count);
        return (int)count;
    }
    REFUSE_AFTER_CUT
    ssize_t got = pread(((handle *)fi->fh)->fd, buffer, size, offset);
    return got < 0 ? -errno : (int)got;
}

static int pc_write(const char *path, const char *buffer, size_t size, off_t offset, struct fuse_file_info *fi)
{
    if (is_control_handle(path, fi)) {
        REFUSE_AFTER_CUT
        if (size >= 4 && strncmp(buffer, "sync", 4) == 0) {
            int result = sync_all();
            return result == 0 ? (int)size : result;
        }
        long keep = 0, sectors = 0;
        if (sscanf(buffer, "cut %ld %ld", &keep, &sectors) < 1 || keep < 0 || sectors < 0) {
            return -EINVAL;
        }
        int result = cut(keep, sectors);
        return result == 0 ? (int)size : result;
    }
    REFUSE_AFTER_CUT
    handle *h = (handle *)fi->fh;
    ssize_t written = pwrite(h->fd, buffer, size, offset);
    if (written < 0) {
        return -errno;
    }
    log_write(h->id, offset, buffer, (size_t)written);
    if (h->sync) {
        int result = flush_file(h->id, h->fd);
        if (result != 0) {
            return result;
        }
    }
    return (int)written;
}

static int pc_statfs(const char *path, struct statvfs *st)
{
    (void)path;
    REFUSE_AFTER_CUT
    return statvfs(g_live, st) == 0 ? 0 : -errno;
}

static int pc_flush(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    (void)fi;
    /* Close is not a flush to the device: nothing becomes durable here. */
    REFUSE_AFTER_CUT
    return 0;
}

static int pc_release(const char *path, struct fuse_file_info *fi)
{
    (void)path;
    handle *h = (handle *)fi->fh;
    if (h && h != &g_control) {
        close(h->fd);
        free(h);
    }
    return 0;
}

static int pc_fsync(const char *path, int datasync, struct fuse_file_info *fi)
{
    (void)path;
    (void)datasync;
    REFUSE_AFTER_CUT
    handle *h = (handle *)fi->fh;
    return h && h != &g_control ? flush_file(h->id, h->fd) : 0;
}

static int pc_fsyncdir(const char *path, int datasync, struct fuse_file_info *fi)
{
    (void)path;
    (void)datasync;
    REFUSE_AFTER_CUT
    return flush_directory((int)fi->fh);
}

static int pc_fallocate(const char *path, int mode, off_t offset, off_t length, struct fuse_file_info *fi)
{
    (void)path;
    REFUSE_AFTER_CUT
    handle *h = (handle *)fi->fh;
    if (fallocate(h->fd, mode, offset, length) != 0) {
        return -errno;
    }
    g_nodes[h->id].whole_dirty = 1;
    return 0;
}

static int pc_access(const char *path, int mask)
{
    if (is_control(path)) {
        return 0;
    }
    REFUSE_AFTER_CUT
    char *full = live(path);
    int result = access(full, mask) == 0 ? 0 : -errno;
    free(full);
    return result;
}

static const struct fuse_operations operations = {
    .init = pc_init,
    .getattr = pc_getattr,
    .opendir = pc_opendir,
    .readdir = pc_readdir,
    .releasedir = pc_releasedir,
    .mkdir = pc_mkdir,
    .mknod = pc_mknod,
    .unlink = pc_unlink,
    .rmdir = pc_rmdir,
    .rename = pc_rename,
    .link = pc_link,
    .chmod = pc_chmod,
    .chown = pc_chown,
    .truncate = pc_truncate,
    .utimens = pc_utimens,
    .create = pc_create,
    .open = pc_open,
    .read = pc_read,
    .write = pc_write,
    .statfs = pc_statfs,
    .flush = pc_flush,
    .release = pc_release,
    .fsync = pc_fsync,
    .fsyncdir = pc_fsyncdir,
    .fallocate = pc_fallocate,
    .access = pc_access,
};

int main(int argc, char *argv[])
{
    if (argc < 4) {
        fprintf(stderr, "usage: powercut BACKING STATE MOUNTPOINT [fuse options]\n");
        return 2;
    }
    g_backing = realpath(argv[1], NULL);
    g_state = realpath(argv[2], NULL);
    if (!g_backing || !g_state) {
        fail("cannot resolve %s or %s", argv[1], argv[2]);
    }
    if (asprintf(&g_live, "%s/live", g_state) < 0 || asprintf(&g_inodes, "%s/inodes", g_state) < 0) {
        fail("out of memory");
    }
    if (mkdir(g_live, 0755) != 0 || mkdir(g_inodes, 0755) != 0) {
        fail("cannot create %s/live and %s/inodes (the state folder must be empty)", g_state, g_state);
    }
    /* Modes are the callers' (the kernel applies their umask before a create reaches this process) or the backing's. */
    umask(0);
    struct stat root;
    lstat(g_live, &root);
    remember_ino(root.st_ino, new_node(1));
    load(g_backing, g_live, 0);
    argv[2] = argv[0];
    return fuse_main(argc - 2, argv + 2, &operations, NULL);
}
