using System.CommandLine;
using System.Globalization;

using KvBench.Core;
using KvBench.Stores;

using Spectre.Console;

namespace KvBench.Cli;

/// <summary><c>stores</c>: every row and what its adapter declares.</summary>
internal static class StoresCommand
{
    public static Command Create()
    {
        var command = new Command("stores", "Lists every store (row) and the capabilities its adapter declares.");
        command.SetAction(parseResult =>
        {
            IAnsiConsole console = AnsiConsole.Create(new AnsiConsoleSettings { Out = new AnsiConsoleOutput(parseResult.InvocationConfiguration.Output) });
            if (Console.IsOutputRedirected)
            {
                // A program reading the table wants whole lines, not the 80 columns a redirected console defaults to.
                console.Profile.Width = 240;
            }

            var table = new Table().AddColumns(
                "Store", "Multi-process", "Max key bytes", "Max value bytes", "Ordered prefix scan", "Durability",
                "Grows", "Available here");
            foreach (string name in StoreCatalog.AllNames)
            {
                StoreCapabilities declared = StoreCatalog.DeclaredCapabilities(name);
                table.AddRow(
                    Markup.Escape(name),
                    declared.MultiProcess.ToString(),
                    declared.MaxKeyBytes.ToString("N0", CultureInfo.InvariantCulture),
                    declared.MaxValueBytes.ToString("N0", CultureInfo.InvariantCulture),
                    declared.OrderedPrefixScan ? "yes" : "no",
                    declared.Durability.ToString(),
                    declared.GrowsWithoutRestart ? "yes" : "no",
                    Markup.Escape(StoreCatalog.UnavailableReason(name) is { } reason ? "no: " + reason : "yes"));
            }

            console.Write(table);
            return ExitCodes.Ok;
        });
        return command;
    }
}
