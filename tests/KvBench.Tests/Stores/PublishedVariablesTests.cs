using KvBench.Stores;

namespace KvBench.Tests.Stores;

/// <summary>
/// Groups that publish one variable at once and stop in any order: the last clean CI before this class saw a group
/// that stopped restore a variable to "unset" while another group, started after it, still served through it.
/// </summary>
public sealed class PublishedVariablesTests
{
    [Fact]
    public void A_group_that_stops_first_leaves_the_other_groups_value_and_the_last_restores_the_one_from_before()
    {
        string name = $"KVBENCH_TEST_PUBLISHED_{Guid.NewGuid():N}";
        Environment.SetEnvironmentVariable(name, "before");
        object first = new();
        object second = new();
        try
        {
            PublishedVariables.Publish(first, name, "first");
            PublishedVariables.Publish(second, name, "second");

            PublishedVariables.Withdraw(first, name);
            Assert.Equal("second", Environment.GetEnvironmentVariable(name));

            PublishedVariables.Withdraw(second, name);
            Assert.Equal("before", Environment.GetEnvironmentVariable(name));
        }
        finally
        {
            Environment.SetEnvironmentVariable(name, null);
        }
    }

    [Fact]
    public void The_newest_group_still_running_is_the_value_shown()
    {
        string name = $"KVBENCH_TEST_PUBLISHED_{Guid.NewGuid():N}";
        object first = new();
        object second = new();
        PublishedVariables.Publish(first, name, "first");
        PublishedVariables.Publish(second, name, "second");

        PublishedVariables.Withdraw(second, name);
        Assert.Equal("first", Environment.GetEnvironmentVariable(name));

        PublishedVariables.Withdraw(first, name);
        Assert.Null(Environment.GetEnvironmentVariable(name));
    }
}
