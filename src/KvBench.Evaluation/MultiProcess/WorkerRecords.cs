using System.Text;

using KvBench.Evaluation.Workload;

namespace KvBench.Evaluation.MultiProcess;

/// <summary>The records a named worker writes: a numbered <see cref="RecordSet"/> per name, so its peer and a later verifier know every byte.</summary>
public static class WorkerRecords
{
    /// <summary>The length of every value a worker writes.</summary>
    public const int ValueBytes = 100;

    /// <summary>The records of the worker called <paramref name="workerName"/>, each value <paramref name="valueBytes"/> long.</summary>
    /// <remarks>
    /// Each name's record set number is a 64-bit FNV-1a hash of it mixed into <see cref="RecordSet.DefaultNumber"/>. Two record sets'
    /// keys could only collide for indices that differ in the numbers' high bits, far beyond what a worker writes.
    /// </remarks>
    public static RecordSet For(string workerName, int valueBytes = ValueBytes)
    {
        ArgumentException.ThrowIfNullOrEmpty(workerName);
        ulong hash = 0xCBF29CE484222325;
        foreach (byte b in Encoding.UTF8.GetBytes(workerName))
        {
            hash = (hash ^ b) * 0x100000001B3;
        }

        return new RecordSet(valueBytes, RecordSet.DefaultNumber ^ hash);
    }
}
