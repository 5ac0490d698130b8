
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'agentread' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'agentread'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'agentread' {
            [CompletionResult]::new('-s', '-s', [CompletionResultType]::ParameterName, 'First line to show, 1-based [default: 1]')
            [CompletionResult]::new('--start-line', '--start-line', [CompletionResultType]::ParameterName, 'First line to show, 1-based [default: 1]')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Most lines to show, 1-2000 [default: 500]')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Most lines to show, 1-2000 [default: 500]')
            [CompletionResult]::new('--tail', '--tail', [CompletionResultType]::ParameterName, 'Show the last N lines (1-2000) instead of a start line')
            [CompletionResult]::new('--start-char', '--start-char', [CompletionResultType]::ParameterName, 'Begin the first line of the window at character C, to page inside a long line [default: 1]')
            [CompletionResult]::new('-C', '-C ', [CompletionResultType]::ParameterName, 'With a PATH:N target, show K lines before and after line N (0-999)')
            [CompletionResult]::new('--context', '--context', [CompletionResultType]::ParameterName, 'With a PATH:N target, show K lines before and after line N (0-999)')
            [CompletionResult]::new('--if-changed', '--if-changed', [CompletionResultType]::ParameterName, 'Answer `unchanged`, without content, when the file''s hash is HASH')
            [CompletionResult]::new('--max-tokens', '--max-tokens', [CompletionResultType]::ParameterName, 'Budget for the window''s content in o200k_base tokens, 1-1000000 [default: none; 9000 with --mcp]')
            [CompletionResult]::new('-f', '-f', [CompletionResultType]::ParameterName, 'Output format [default: text; json with --call]')
            [CompletionResult]::new('--format', '--format', [CompletionResultType]::ParameterName, 'Output format [default: text; json with --call]')
            [CompletionResult]::new('--numbers', '--numbers', [CompletionResultType]::ParameterName, 'Line-number style')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'Workspace root; nothing outside it is read [default: $AGENTREAD_ROOT, else the git work tree holding the current directory, else the current directory]')
            [CompletionResult]::new('--max-line-chars', '--max-line-chars', [CompletionResultType]::ParameterName, 'Cut longer lines to N characters (1-1000000), marked ` … [+K chars]` [default: 2000]')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Budget in bytes for one window''s content, number prefixes included [default: 51200]')
            [CompletionResult]::new('--max-file-size', '--max-file-size', [CompletionResultType]::ParameterName, 'Refuse larger files: bytes, or K, M, G, KiB, MiB, GiB (1024s), KB, MB, GB (1000s)')
            [CompletionResult]::new('--encoding', '--encoding', [CompletionResultType]::ParameterName, 'Encoding: utf-8, auto, or a WHATWG label (gbk, shift_jis, windows-1252, utf-16le, ...) [default: utf-8]')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour the output; NO_COLOR is honoured by auto')
            [CompletionResult]::new('--roots-timeout', '--roots-timeout', [CompletionResultType]::ParameterName, 'With --mcp: how long a client''s answer to roots/list is awaited, in seconds (fractions allowed) [default: 10]')
            [CompletionResult]::new('--call', '--call', [CompletionResultType]::ParameterName, 'Take the parameters as a tool call''s JSON arguments; `-` reads them from standard input')
            [CompletionResult]::new('--tool-schema', '--tool-schema', [CompletionResultType]::ParameterName, 'Print the tool definition for an agent framework and exit')
            [CompletionResult]::new('--deny', '--deny', [CompletionResultType]::ParameterName, 'Refuse files matching this gitignore-style glob (repeatable) [also: $AGENTREAD_DENY, globs separated by '':'']')
            [CompletionResult]::new('--generate', '--generate', [CompletionResultType]::ParameterName, 'Print a completion script or the man page and exit')
            [CompletionResult]::new('--mcp-config', '--mcp-config', [CompletionResultType]::ParameterName, 'Print what adds agentread to an MCP host and exit, with the server settings given beside it')
            [CompletionResult]::new('--hash', '--hash', [CompletionResultType]::ParameterName, 'Report the BLAKE3 hash of the file''s bytes in stats.content_hash')
            [CompletionResult]::new('--outline', '--outline', [CompletionResultType]::ParameterName, 'List the file''s symbols (functions, classes, sections) with their lines, or a directory''s map')
            [CompletionResult]::new('--enclosing', '--enclosing', [CompletionResultType]::ParameterName, 'With PATH:N or --start-line N, read the whole function or block that holds line N')
            [CompletionResult]::new('--raw', '--raw', [CompletionResultType]::ParameterName, 'Read notebooks and PDFs as their bytes, not as a view')
            [CompletionResult]::new('--signatures', '--signatures', [CompletionResultType]::ParameterName, 'Show the file with function and method bodies elided and long comments cut to their first paragraph')
            [CompletionResult]::new('--fit', '--fit', [CompletionResultType]::ParameterName, 'Show the richest view that fits the budget whole: the lines, else signatures, else the outline')
            [CompletionResult]::new('--no-hint', '--no-hint', [CompletionResultType]::ParameterName, 'Print no footer in text mode (for pipelines)')
            [CompletionResult]::new('--no-cache', '--no-cache', [CompletionResultType]::ParameterName, 'Parse every file afresh: keep no parsed outlines (also AGENTREAD_NO_CACHE=1)')
            [CompletionResult]::new('--deny-secrets', '--deny-secrets', [CompletionResultType]::ParameterName, 'Refuse the built-in list of secret files (.env, *.pem, id_rsa, .netrc, ...)')
            [CompletionResult]::new('--mcp', '--mcp', [CompletionResultType]::ParameterName, 'Serve the `read` tool over the Model Context Protocol on standard input and output')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every line from the start line to the end, none cut: no limit, byte budget or line cut; streamed as text')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
