using KvBench.Stores.Servers;


namespace KvBench.Tests.Stores.Servers;

/// <summary>A failed server command is quoted by its cause, not by its last words.</summary>
public sealed class ServerCommandTests
{
    /// <summary>
    /// What <c>mariadb-install-db</c> (MariaDB 10.11) printed here when another server's start deleted its temporary
    /// table: the cause on standard output, then "Aborting" and its advice, then standard error's pipe errors.
    /// </summary>
    private const string InstallDbFailure = """
        Installing MariaDB/MySQL system tables in '/tmp/kvbench-servers/try4' ...
        ERROR: 6  Error on delete of '/tmp/#sql-temptable-6baf-1-1f.MAD' (Errcode: 2 "No such file or directory")
        2026-11-27  0:27:39 0 [ERROR] Aborting
        Installation of system tables failed!  Examine the logs in
        /tmp/kvbench-servers/try4 for more information.
        Please check all of the above before submitting a bug report
        at https://mariadb.org/jira
        cat: write error: Broken pipe
        """;

    [Fact]
    public void A_failure_is_quoted_by_the_lines_that_name_an_error_first()
    {
        string quoted = ServerCommand.Failure(InstallDbFailure);

        Assert.StartsWith("ERROR: 6  Error on delete of '/tmp/#sql-temptable-6baf-1-1f.MAD'", quoted, StringComparison.Ordinal);
        Assert.Contains("[ERROR] Aborting", quoted, StringComparison.Ordinal);
    }

    [Fact]
    public void A_failure_that_names_no_error_is_quoted_by_its_last_lines()
    {
        Assert.Equal("two / three / four", ServerCommand.Failure("one\ntwo\n\nthree\nfour\n"));
        Assert.Equal("no output", ServerCommand.Failure(""));
    }
}
