
using KvBench.Tests.Stores.Servers;

namespace KvBench.Tests;

/// <summary>
/// Plain <c>dotnet test</c> leaves out <c>Category=Servers</c> (docs/testing.md) and must start no server: a class
/// that takes a fixture starting servers, or joins a collection kept for the shared servers, has to say it is in that
/// category.
/// </summary>
public sealed class ServerCategoryTests
{
    private static readonly Type[] s_serverCollections =
        [typeof(AloneOnTheServersCollection), typeof(ServerLifecycleCollection)];

    [Fact]
    public void Every_class_that_starts_servers_through_a_fixture_or_shares_them_is_in_the_servers_category()
    {
        Type[] classes = [.. typeof(ServerCategoryTests).Assembly.GetTypes().Where(UsesServers)];
        Assert.Contains(classes, type => type.Name == "ServerConformanceTests");

        Assert.All(classes, type => Assert.True(
            InCategory(type, "Servers"),
            $"{type.FullName} uses KvBench's servers but lacks [Trait(\"Category\", \"Servers\")], so plain `dotnet test` "
            + "would start them."));
    }

    [Fact]
    public void The_embedded_rows_fixture_is_no_server_fixture() =>
        Assert.False(IsServerFixture(typeof(RowHostsFixture)));

    private static bool UsesServers(Type type) =>
        type.GetInterfaces().Any(contract => contract.IsGenericType
            && contract.GetGenericTypeDefinition() == typeof(IClassFixture<>)
            && IsServerFixture(contract.GetGenericArguments()[0]))
        || s_serverCollections
            .Select(definition => Name(definition, typeof(CollectionDefinitionAttribute)))
            .Contains(Name(type, typeof(CollectionAttribute)));

    /// <summary>Every fixture derived from the rows' hosts starts server rows; the base itself starts the embedded ones.</summary>
    private static bool IsServerFixture(Type fixture) =>
        fixture != typeof(RowHostsFixture) && typeof(RowHostsFixture).IsAssignableFrom(fixture);

    /// <summary>The collection <paramref name="type"/> names with an attribute of type <paramref name="attribute"/>, if any.</summary>
    private static string? Name(Type type, Type attribute) =>
        type.GetCustomAttributesData().FirstOrDefault(data => data.AttributeType == attribute)?.ConstructorArguments
            is [{ Value: string name }, ..] ? name : null;

    private static bool InCategory(Type type, string category) =>
        type.GetCustomAttributesData().Any(data => data.AttributeType == typeof(TraitAttribute)
            && data.ConstructorArguments is [{ Value: "Category" }, { Value: string value }]
            && value == category);
}
