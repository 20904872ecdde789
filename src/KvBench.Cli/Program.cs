using KvBench.Cli;

return KvBenchCommand.Invoke(args);
