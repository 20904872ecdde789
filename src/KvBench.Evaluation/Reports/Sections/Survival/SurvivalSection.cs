using KvBench.Evaluation.MultiProcess;
using KvBench.Evaluation.Reports.Sections.Crash;
using KvBench.Evaluation.Reports.Sections.PowerLoss;
using KvBench.Evaluation.Reports.Sections.ServerKills;

namespace KvBench.Evaluation.Reports.Sections.Survival;

/// <summary>
/// What every row survives, embedded and server, in one table: the crash rounds' writer kills (<see cref="CrashRoundsSection"/>)
/// and the server rows' writer and server kills (<see cref="ServerKillRoundsSection"/>), all of the same number of
/// rounds. It measures nothing of its own: it sets those sections' results side by side, so run it with them
/// (<c>kvbench adr --servers --sections crash serverkills survives</c>); alone it writes nothing.
/// </summary>
public sealed class SurvivalSection : AdrSection
{
    /// <inheritdoc/>
    public override string Name => "survives";

    /// <inheritdoc/>
    public override Task MeasureAsync(AdrContext context) => Task.CompletedTask;

    /// <inheritdoc/>
    public override void WriteTo(AdrMarkdown markdown)
    {
        ArgumentNullException.ThrowIfNull(markdown);
        CrashRoundsSection? crash = markdown.Sections.OfType<CrashRoundsSection>().FirstOrDefault(section => section.Results is not null);
        ServerKillRoundsSection? servers = markdown.Sections.OfType<ServerKillRoundsSection>().FirstOrDefault(section => section.Results is not null);
        if (crash is null && servers is null)
        {
            return;
        }

        markdown.Within(AdrSections.DurabilityChapter);
        markdown.Output.AppendLine("### What each row survives").AppendLine();
        PowerLossSection? power = markdown.Sections.OfType<PowerLossSection>().FirstOrDefault(section => section.Results is not null);
        SurvivalTable.ToMarkdown([.. crash?.Results ?? [], .. servers?.WriterKills ?? []], servers?.Results ?? [], power?.Results).WriteTo(markdown.Output);
        if (power is not null)
        {
            markdown.Output.AppendLine(
                "A power cut is the power-loss rounds above: the writer (for a server row, the server) killed and everything it did not flush "
                + "dropped.").AppendLine();
        }

        markdown.Output.AppendLine(
            "Every row at every tier it offers, from the crash rounds above and the server kill rounds: a process " +
                "kill is a writer killed with SIGKILL while it puts records (for a server row, the client's process; " +
                "its server runs on), a server kill is the server's whole process tree killed under a writer and " +
                "started again on its data directory. Each counts the records acknowledged before the kill and those " +
                "missing or changed afterwards. A tier means one thing on every row: at Buffered an acknowledged " +
                "write survives a killed process, at Synced a power cut as well; where a server's setting for a tier " +
                "keeps less, the Acknowledged column names what it keeps instead, here and in every workload table " +
                "that sets rows side by side.").AppendLine();
        if (crash is null)
        {
            markdown.Output.AppendLine("The embedded rows' crash rounds did not run (`--sections crash`).").AppendLine();
        }

        if (servers is null)
        {
            markdown.Output.AppendLine("The server rows did not run (`--servers --sections serverkills`).").AppendLine();
        }
        else
        {
            foreach (ServerLeftOut left in servers.LeftOut)
            {
                markdown.Output.AppendLine($"Not measured: {left.Row.Name}: {left.Reason}.").AppendLine();
            }
        }
    }
}
