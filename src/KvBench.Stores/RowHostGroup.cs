namespace KvBench.Stores;

/// <summary>
/// Several hosts run as one: the members of a cluster, or every row a suite uses. They start in order; when one fails
/// to start, those already started are stopped before the error is thrown. Disposing stops every member, in reverse
/// order, even when stopping one of them throws.
/// </summary>
public sealed class RowHostGroup : RowHost
{
    private readonly RowHost[] _members;
    private readonly Lock _startedLock = new();
    private readonly List<RowHost> _started = [];

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

    public override async ValueTask DisposeAsync()
    {
        RowHost[] started;
        lock (_startedLock)
        {
            started = [.. _started];
            _started.Clear();
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
}
