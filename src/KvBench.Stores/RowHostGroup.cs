namespace KvBench.Stores;

/// <summary>
/// Several hosts run as one: the members of a cluster, or every row a suite uses. They start in order; when one fails
/// to start, those already started are stopped before the error is thrown. Once all are ready, what they publish
/// (<see cref="RowHost.Published"/>) is set in this process's environment, so every process started while the group
/// runs inherits it. Disposing first takes those variables back (each to the value it had before, or to that of another
/// group still publishing it: <see cref="PublishedVariables"/>), then stops every
/// member, in reverse order, even when stopping one of them throws.
/// </summary>
public sealed class RowHostGroup : RowHost
{
    private readonly RowHost[] _members;
    private readonly Lock _startedLock = new();
    private readonly List<RowHost> _started = [];
    private Dictionary<string, string> _published = [];

    /// <summary>A group of <paramref name="members"/>, none started yet.</summary>
    public RowHostGroup(IEnumerable<RowHost> members)
    {
        ArgumentNullException.ThrowIfNull(members);
        _members = [.. members];
    }

    /// <summary>The members, in the order they start.</summary>
    public IReadOnlyList<RowHost> Members => _members;

    public override async Task StartAsync(CancellationToken cancellationToken = default)
    {
        try
        {
            foreach (RowHost member in _members)
            {
                lock (_startedLock)
                {
                    // Counted before it starts: a start that fails half-way is stopped with the rest.
                    _started.Add(member);
                }

                await member.StartAsync(cancellationToken).ConfigureAwait(false);
            }

            Publish();
        }
        catch (Exception startError)
        {
            try
            {
                await DisposeAsync().ConfigureAwait(false);
            }
            catch (AggregateException stopErrors)
            {
                // Both are said: why the start failed, and which stop failed after it.
                throw new AggregateException([startError, .. stopErrors.InnerExceptions]);
            }

            throw;
        }
    }

    /// <summary>What every member publishes, while the group runs.</summary>
    public override IReadOnlyDictionary<string, string> Published
    {
        get
        {
            lock (_startedLock)
            {
                return _published;
            }
        }
    }

    public override async ValueTask DisposeAsync()
    {
        RowHost[] started;
        lock (_startedLock)
        {
            started = [.. _started];
            _started.Clear();

            // Taken back before any member stops, so no process started from here on looks for a server that is going.
            foreach (string name in _published.Keys)
            {
                PublishedVariables.Withdraw(this, name);
            }

            _published = [];
        }

        List<Exception> errors = [];
        foreach (RowHost member in started.Reverse())
        {
            try
            {
                await member.DisposeAsync().ConfigureAwait(false);
            }
            catch (Exception error)
            {
                errors.Add(error);
            }
        }

        if (errors.Count > 0)
        {
            throw new AggregateException("Stopping a row's host failed.", errors);
        }
    }

    /// <summary>
    /// Sets what the members publish in this process's environment (<see cref="PublishedVariables"/>: another group may
    /// publish the same variables at the same time).
    /// </summary>
    /// <exception cref="InvalidOperationException">Two members publish one variable with different values.</exception>
    private void Publish()
    {
        var published = new Dictionary<string, string>();
        foreach ((string name, string value) in _members.SelectMany(member => member.Published))
        {
            if (published.TryGetValue(name, out string? other) && other != value)
            {
                throw new InvalidOperationException($"Two hosts publish {name}: '{other}' and '{value}'.");
            }

            published[name] = value;
        }

        lock (_startedLock)
        {
            foreach ((string name, string value) in published)
            {
                PublishedVariables.Publish(this, name, value);
            }

            _published = published;
        }
    }
}
