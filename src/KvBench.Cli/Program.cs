using KvBench.Cli;
using KvBench.Stores;

ChildProcesses.ExitIfParentGone();
return KvBenchCommand.Invoke(args);
