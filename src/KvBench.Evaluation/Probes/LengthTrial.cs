namespace KvBench.Evaluation.Probes;

/// <summary>
/// One try of a key or value length in a size probe, as a yes or no. A store refuses a length with a false read-back or
/// an <see cref="ArgumentException"/> (the typed size errors derive from it); any other error, a server row's dropped
/// connection or a leader's election among them, says nothing about the length, so the length is tried again before it
/// counts as refused: counted at once, one such error made a cluster row's claimed limit read as broken.
/// </summary>
internal sealed class LengthTrial(Func<int, bool> accepts, TimeSpan retryDelay)
{
    /// <summary>How many times a length that fails with an error other than a refusal is tried.</summary>
    public const int Attempts = 3;

    /// <summary>The wait before a try is repeated: longer than a cluster of KvBench's servers takes to elect a leader.</summary>
    public static readonly TimeSpan DefaultRetryDelay = TimeSpan.FromSeconds(2);

    /// <summary>The last error that was not a refusal and recurred on every try of a length, or <see langword="null"/>.</summary>
    public string? Error { get; private set; }

    /// <summary>Whether the length was stored and read back; never throws but <see cref="OutOfMemoryException"/>.</summary>
    public bool Try(int length)
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return accepts(length);
            }
            catch (ArgumentException)
            {
                return false;
            }
            catch (Exception e) when (e is not OutOfMemoryException)
            {
                if (attempt == Attempts)
                {
                    Error = $"{length:N0} bytes: {e.GetType().Name}: {e.Message}";
                    return false;
                }

                Thread.Sleep(retryDelay);
            }
        }
    }
}
