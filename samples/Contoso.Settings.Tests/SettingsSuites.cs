using Contoso.Settings;

using KvBench.Testing;

namespace Contoso.Settings.Tests;

// Contoso's settings store through every suite KvBench's own rows pass; each class only names the store's definition.

public sealed class SettingsConformanceTests : ConformanceSuite<ContosoSettingsDefinition>;

public sealed class SettingsLifetimeTests : LifetimeSuite<ContosoSettingsDefinition>;

public sealed class SettingsMultiProcessTests : MultiProcessSuite<ContosoSettingsDefinition>;

public sealed class SettingsCrashTests : CrashSuite<ContosoSettingsDefinition>;

public sealed class SettingsDiskFullTests : DiskFullSuite<ContosoSettingsDefinition>;

public sealed class SettingsDamagedFileTests : DamagedFileSuite<ContosoSettingsDefinition>;
