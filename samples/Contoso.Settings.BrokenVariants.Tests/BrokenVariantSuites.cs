using Contoso.Settings;

using KvBench.Testing;

namespace Contoso.Settings.BrokenVariants.Tests;

// The settings store's variants broken on purpose, each through every suite. These runs are meant to fail: .ci/run
// checks that, for each variant, the tests that fail are exactly the ones expected-failures.txt says catch its fault.

public sealed class DropsPutsConformanceTests : ConformanceSuite<DropsEverySeventhPutDefinition>;

public sealed class DropsPutsLifetimeTests : LifetimeSuite<DropsEverySeventhPutDefinition>;

public sealed class DropsPutsMultiProcessTests : MultiProcessSuite<DropsEverySeventhPutDefinition>;

public sealed class DropsPutsCrashTests : CrashSuite<DropsEverySeventhPutDefinition>;

public sealed class DropsPutsDiskFullTests : DiskFullSuite<DropsEverySeventhPutDefinition>;

public sealed class DropsPutsDamagedFileTests : DamagedFileSuite<DropsEverySeventhPutDefinition>;

public sealed class StaleConformanceTests : ConformanceSuite<StaleAfterReopenDefinition>;

public sealed class StaleLifetimeTests : LifetimeSuite<StaleAfterReopenDefinition>;

public sealed class StaleMultiProcessTests : MultiProcessSuite<StaleAfterReopenDefinition>;

public sealed class StaleCrashTests : CrashSuite<StaleAfterReopenDefinition>;

public sealed class StaleDiskFullTests : DiskFullSuite<StaleAfterReopenDefinition>;

public sealed class StaleDamagedFileTests : DamagedFileSuite<StaleAfterReopenDefinition>;

public sealed class NoLockConformanceTests : ConformanceSuite<NoLockDefinition>;

public sealed class NoLockLifetimeTests : LifetimeSuite<NoLockDefinition>;

public sealed class NoLockMultiProcessTests : MultiProcessSuite<NoLockDefinition>;

public sealed class NoLockCrashTests : CrashSuite<NoLockDefinition>;

public sealed class NoLockDiskFullTests : DiskFullSuite<NoLockDefinition>;

public sealed class NoLockDamagedFileTests : DamagedFileSuite<NoLockDefinition>;
