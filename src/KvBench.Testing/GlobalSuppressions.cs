using System.Diagnostics.CodeAnalysis;

// The suites name their theory data by a member the deriving test class declares (StoreSuite's RowsMember and the
// rest), so the abstract suites, never run themselves, have no such member. The rule is reported where the attribute is
// written, which only this assembly's build analyzes (a consumer's build sees the derived class, not the attribute),
// so one suppression here, for the whole namespace, covers every suite.
[assembly: SuppressMessage(
    "Usage",
    "xUnit1015:MemberData must reference an existing member",
    Justification = "Each test class that runs a suite declares the members; the suites are abstract and never run.",
    Scope = "namespaceanddescendants",
    Target = "~N:KvBench.Testing")]
