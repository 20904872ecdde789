using System.Text;



using KvBench.Evaluation.Reports.Sections.PowerLoss;

namespace KvBench.Tests.Evaluation.Reports.Sections.PowerLoss;

/// <summary>
/// The power-cut file system keeps exactly what each flush covers and a cut drops the rest: file data by fsync,
/// fdatasync and O_SYNC/O_DSYNC writes, directory entries (creates, renames, unlinks, new folders) by the directory's
/// own fsync. Each test mounts it over a backing folder of its own, writes through the mount, cuts, and reads what the
/// backing folder kept. They fail, saying why, on a machine where FUSE cannot run.
/// </summary>
[Trait("Category", "PowerLoss")]
public sealed class PowerCutFileSystemTests : IDisposable
{
    private readonly TempDirectory _root = new();

    private string Backing => _root.Combine("backing");

    public void Dispose() => _root.Dispose();

    [Fact]
    public async Task Unflushed_writes_to_a_durable_file_are_dropped()
    {
        await using PowerCutMount mount = await Mount(("f", "old"));

        Posix.WriteFile(In(mount, "f"), "new and never flushed");
        Assert.Equal("new and never flushed", File.ReadAllText(In(mount, "f")));
        Assert.True(mount.Status().Pending > 0);
        mount.Cut();

        Assert.Equal("old", Kept("f"));
    }

    [Fact]
    public async Task An_fsync_keeps_the_data_written_before_it_and_not_after()
    {
        await using PowerCutMount mount = await Mount(("f", "old"));

        int fd = Posix.Open(In(mount, "f"), Posix.WriteOnly | Posix.Truncate);
        Posix.Write(fd, "flushed");
        Posix.FileSync(fd);
        Posix.Write(fd, " then not");
        Posix.Close(fd);
        mount.Cut();

        Assert.Equal("flushed", Kept("f"));
    }

    [Fact]
    public async Task An_fdatasync_keeps_the_data_written_before_it()
    {
        await using PowerCutMount mount = await Mount(("f", "old"));

        int fd = Posix.Open(In(mount, "f"), Posix.WriteOnly | Posix.Append);
        Posix.Write(fd, " appended");
        Posix.DataSyncOnly(fd);
        Posix.Write(fd, " lost");
        Posix.Close(fd);
        mount.Cut();

        Assert.Equal("old appended", Kept("f"));
    }

    [Theory]
    [InlineData(Posix.DataSync)]
    [InlineData(Posix.Sync)]
    public async Task A_write_through_a_synchronous_descriptor_is_kept_without_a_flush_call(int flag)
    {
        await using PowerCutMount mount = await Mount(("f", "old"));

        Posix.WriteFile(In(mount, "f"), "synchronous", flag);
        int fd = Posix.Open(In(mount, "f"), Posix.WriteOnly | Posix.Append);
        Posix.Write(fd, " then buffered");
        Posix.Close(fd);
        mount.Cut();

        Assert.Equal("synchronous", Kept("f"));
    }

    [Fact]
    public async Task A_truncate_and_a_write_past_it_are_kept_together_by_the_fsync_after_them()
    {
        await using PowerCutMount mount = await Mount(("f", "abcdefgh"), ("g", "abcdefgh"));

        using (var flushed = new FileStream(In(mount, "f"), FileMode.Open, FileAccess.Write))
        {
            flushed.SetLength(2);
            flushed.Position = 5;
            flushed.Write("Z"u8);
            flushed.Flush(flushToDisk: true);
        }

        using (var unflushed = new FileStream(In(mount, "g"), FileMode.Open, FileAccess.Write))
        {
            unflushed.SetLength(2);
        }

        mount.Cut();

        Assert.Equal("ab\0\0\0Z", Kept("f"));
        Assert.Equal("abcdefgh", Kept("g"));
    }

    [Fact]
    public async Task A_new_file_s_fsync_keeps_its_data_but_only_the_directory_s_fsync_keeps_its_name()
    {
        await using PowerCutMount mount = await Mount();

        foreach (string name in (ReadOnlySpan<string>)["named", "unnamed"])
        {
            int fd = Posix.Open(In(mount, name), Posix.WriteOnly | Posix.Create);
            Posix.Write(fd, name);
            Posix.FileSync(fd);
            Posix.Close(fd);
            if (name == "named")
            {
                Posix.SyncDirectory(mount.MountPoint);
            }
        }

        mount.Cut();

        Assert.False(File.Exists(Path.Combine(Backing, "unnamed")), "A created file's name survived a cut without its directory's fsync.");
        Assert.Equal("named", Kept("named"));
    }

    [Fact]
    public async Task A_name_made_durable_before_the_data_is_an_empty_file()
    {
        await using PowerCutMount mount = await Mount();

        Posix.WriteFile(In(mount, "f"), "never flushed");
        Posix.SyncDirectory(mount.MountPoint);
        mount.Cut();

        Assert.Equal("", Kept("f"));
    }

    [Fact]
    public async Task An_unflushed_rename_and_unlink_are_undone_and_flushed_ones_are_kept()
    {
        await using PowerCutMount mount = await Mount(("a", "a"), ("b", "b"), ("kept/c", "c"), ("kept/d", "d"));

        File.Move(In(mount, "a"), In(mount, "a-renamed"));
        File.Delete(In(mount, "b"));
        File.Move(In(mount, "kept/c"), In(mount, "kept/c-renamed"));
        File.Delete(In(mount, "kept/d"));
        Posix.SyncDirectory(In(mount, "kept"));
        mount.Cut();

        Assert.Equal(["a", "b", "kept"], Entries(""));
        Assert.Equal(["c-renamed"], Entries("kept"));
        Assert.Equal("c", Kept("kept/c-renamed"));
    }

    [Fact]
    public async Task A_rename_between_folders_is_durable_in_each_folder_once_that_folder_is_flushed()
    {
        await using PowerCutMount mount = await Mount(("from/f", "f"), ("to/other", "other"));

        File.Move(In(mount, "from/f"), In(mount, "to/f"));
        Posix.SyncDirectory(In(mount, "to"));
        mount.Cut();

        // Only the target was flushed: the file has both names, as a journal that kept one half of a rename leaves it.
        Assert.Equal("f", Kept("from/f"));
        Assert.Equal("f", Kept("to/f"));
    }

    [Fact]
    public async Task A_new_folder_is_reachable_only_once_its_parent_is_flushed()
    {
        await using PowerCutMount mount = await Mount(("existing", "x"));

        Directory.CreateDirectory(In(mount, "reachable"));
        Posix.SyncDirectory(mount.MountPoint);
        Directory.CreateDirectory(In(mount, "orphan"));
        foreach (string folder in (ReadOnlySpan<string>)["orphan", "reachable"])
        {
            int fd = Posix.Open(In(mount, $"{folder}/f"), Posix.WriteOnly | Posix.Create);
            Posix.Write(fd, folder);
            Posix.FileSync(fd);
            Posix.Close(fd);
            Posix.SyncDirectory(In(mount, folder));
        }

        mount.Cut();

        Assert.Equal(["existing", "reachable"], Entries(""));
        Assert.Equal("reachable", Kept("reachable/f"));
    }

    [Fact]
    public async Task A_cut_can_keep_a_prefix_of_the_pending_writes_and_tear_the_next_at_a_sector()
    {
        await using PowerCutMount mount = await Mount(("log", ""));

        int fd = Posix.Open(In(mount, "log"), Posix.WriteOnly | Posix.Append);
        foreach (char fill in "abc")
        {
            Posix.Write(fd, new string(fill, 600));
        }

        Posix.Close(fd);
        Assert.Equal(3, mount.Status().Pending);
        mount.Cut(keptWrites: 1, tornSectors: 1);

        Assert.Equal(new string('a', 600) + new string('b', PowerCutMount.SectorBytes), Kept("log"));
    }

    [Fact]
    public async Task After_a_cut_every_call_fails_and_the_control_file_is_never_listed()
    {
        await using PowerCutMount mount = await Mount(("f", "old"));
        Assert.Equal(["f"], Directory.GetFileSystemEntries(mount.MountPoint).Select(Path.GetFileName));

        mount.Cut();

        Assert.True(mount.Status().IsCut);
        Assert.ThrowsAny<IOException>(() => File.ReadAllText(In(mount, "f")));
        Assert.ThrowsAny<IOException>(() => File.WriteAllText(In(mount, "g"), "after"));
        Assert.Equal(["f"], Entries(""));
    }

    [Fact]
    public async Task A_write_through_an_O_DIRECT_descriptor_is_kept_only_by_a_flush()
    {
        await using PowerCutMount mount = await Mount(("flushed", "old"), ("unflushed", "old"));

        foreach (string name in (ReadOnlySpan<string>)["flushed", "unflushed"])
        {
            int fd = Posix.Open(In(mount, name), Posix.WriteOnly | Posix.Truncate | Posix.Direct);
            Posix.Write(fd, new string('d', PowerCutMount.SectorBytes));
            if (name == "flushed")
            {
                Posix.DataSyncOnly(fd);
            }

            Posix.Close(fd);
        }

        mount.Cut();

        Assert.Equal(new string('d', PowerCutMount.SectorBytes), Kept("flushed"));
        Assert.Equal("old", Kept("unflushed"));
    }

    [Fact]
    public async Task A_sync_makes_every_file_and_folder_written_so_far_durable_and_nothing_after_it()
    {
        await using PowerCutMount mount = await Mount(("f", "old"));

        Directory.CreateDirectory(In(mount, "new"));
        Posix.WriteFile(In(mount, "new/g"), "synced");
        Posix.WriteFile(In(mount, "f"), "synced too");
        mount.Sync();
        Posix.WriteFile(In(mount, "f"), "after the sync");
        Posix.WriteFile(In(mount, "h"), "after the sync");
        mount.Cut();

        Assert.Equal(["f", "new"], Entries(""));
        Assert.Equal("synced", Kept("new/g"));
        Assert.Equal("synced too", Kept("f"));
    }

    [Fact]
    public async Task What_another_user_creates_is_its_own_and_keeps_its_owner_and_mode_over_a_cut()
    {
        await using PowerCutMount mount = await Mount();

        // The mount allows other users; what they create belongs to them, as PostgreSQL's check of its data directory needs.
        Run("runuser", "-u", "nobody", "--", "sh", "-c", $"umask 077 && mkdir {In(mount, "own")} && echo kept > {In(mount, "own/f")}");
        Assert.Equal("nobody 700", Run("stat", "-c", "%U %a", In(mount, "own")));
        mount.Sync();
        mount.Cut();

        Assert.Equal("nobody 700", Run("stat", "-c", "%U %a", Path.Combine(Backing, "own")));
        Assert.Equal("nobody 600", Run("stat", "-c", "%U %a", Path.Combine(Backing, "own/f")));
        Assert.Equal("kept\n", Kept("own/f"));
    }

    private static string Run(string program, params string[] arguments)
    {
        var start = new System.Diagnostics.ProcessStartInfo(program, arguments) { RedirectStandardOutput = true, RedirectStandardError = true };
        using System.Diagnostics.Process process = System.Diagnostics.Process.Start(start)!;
        string output = process.StandardOutput.ReadToEnd();
        string error = process.StandardError.ReadToEnd();
        process.WaitForExit();
        return process.ExitCode == 0 ? output.Trim() : throw new InvalidOperationException($"{program} failed ({process.ExitCode}): {error}");
    }

    private async Task<PowerCutMount> Mount(params (string Path, string Text)[] files)
    {
        Directory.CreateDirectory(Backing);
        foreach ((string path, string text) in files)
        {
            string full = Path.Combine(Backing, path);
            Directory.CreateDirectory(Path.GetDirectoryName(full)!);
            File.WriteAllText(full, text);
        }

        return await PowerCutMount.MountAsync(Backing, _root.Path);
    }

    private static string In(PowerCutMount mount, string path) => Path.Combine(mount.MountPoint, path);

    private string Kept(string path) => Encoding.ASCII.GetString(File.ReadAllBytes(Path.Combine(Backing, path)));

    private string[] Entries(string folder) =>
        [.. Directory.GetFileSystemEntries(Path.Combine(Backing, folder)).Select(entry => Path.GetFileName(entry)!).Order(StringComparer.Ordinal)];
}
