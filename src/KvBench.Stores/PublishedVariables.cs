namespace KvBench.Stores;

/// <summary>
/// The environment variables row hosts publish in this process (<see cref="RowHostGroup"/>), kept as a stack per
/// variable: groups run at once (test classes run in parallel, each with its fixture's group) and stop in any order, so
/// a group that stops takes back only what it set: the variable shows the value of the newest group still publishing
/// it, and the value it had before any did once the last has stopped.
/// </summary>
internal static class PublishedVariables
{
    private static readonly Lock s_lock = new();
    private static readonly Dictionary<string, Stack> s_stacks = new(StringComparer.Ordinal);

    /// <summary>Sets <paramref name="name"/> to <paramref name="value"/> for <paramref name="owner"/> until <see cref="Withdraw"/>.</summary>
    public static void Publish(object owner, string name, string value)
    {
        lock (s_lock)
        {
            if (!s_stacks.TryGetValue(name, out Stack? stack))
            {
                stack = s_stacks[name] = new Stack(Environment.GetEnvironmentVariable(name));
            }

            stack.Entries.Add((owner, value));
            Environment.SetEnvironmentVariable(name, value);
        }
    }

    /// <summary>
    /// Takes back what <paramref name="owner"/> published for <paramref name="name"/>, leaving the newest other owner's
    /// value, or the value from before.
    /// </summary>
    public static void Withdraw(object owner, string name)
    {
        lock (s_lock)
        {
            if (!s_stacks.TryGetValue(name, out Stack? stack))
            {
                return;
            }

            stack.Entries.RemoveAll(entry => ReferenceEquals(entry.Owner, owner));
            if (stack.Entries.Count == 0)
            {
                s_stacks.Remove(name);
                Environment.SetEnvironmentVariable(name, stack.Before);
            }
            else
            {
                Environment.SetEnvironmentVariable(name, stack.Entries[^1].Value);
            }
        }
    }

    private sealed class Stack(string? before)
    {
        public string? Before { get; } = before;

        public List<(object Owner, string Value)> Entries { get; } = [];
    }
}
