
use builtin;
use str;

set edit:completion:arg-completer[agentread] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'agentread'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'agentread'= {
            cand -s 'First line to show, 1-based [default: 1]'
            cand --start-line 'First line to show, 1-based [default: 1]'
            cand -n 'Most lines to show, 1-2000 [default: 500]'
            cand --limit 'Most lines to show, 1-2000 [default: 500]'
            cand --tail 'Show the last N lines (1-2000) instead of a start line'
            cand --start-char 'Begin the first line of the window at character C, to page inside a long line [default: 1]'
            cand -C 'With a PATH:N target, show K lines before and after line N (0-999)'
            cand --context 'With a PATH:N target, show K lines before and after line N (0-999)'
            cand --if-changed 'Answer `unchanged`, without content, when the file''s hash is HASH'
            cand --max-tokens 'Budget for the window''s content in o200k_base tokens, 1-1000000 [default: none; 9000 with --mcp]'
            cand -f 'Output format [default: text; json with --call]'
            cand --format 'Output format [default: text; json with --call]'
            cand --numbers 'Line-number style'
            cand --root 'Workspace root; nothing outside it is read [default: $AGENTREAD_ROOT, else the git work tree holding the current directory, else the current directory]'
            cand --max-line-chars 'Cut longer lines to N characters (1-1000000), marked ` … [+K chars]` [default: 2000]'
            cand --max-bytes 'Budget in bytes for one window''s content, number prefixes included [default: 51200]'
            cand --max-file-size 'Refuse larger files: bytes, or K, M, G, KiB, MiB, GiB (1024s), KB, MB, GB (1000s)'
            cand --encoding 'Encoding: utf-8, auto, or a WHATWG label (gbk, shift_jis, windows-1252, utf-16le, ...) [default: utf-8]'
            cand --color 'When to colour the output; NO_COLOR is honoured by auto'
            cand --roots-timeout 'With --mcp: how long a client''s answer to roots/list is awaited, in seconds (fractions allowed) [default: 10]'
            cand --call 'Take the parameters as a tool call''s JSON arguments; `-` reads them from standard input'
            cand --tool-schema 'Print the tool definition for an agent framework and exit'
            cand --deny 'Refuse files matching this gitignore-style glob (repeatable) [also: $AGENTREAD_DENY, globs separated by '':'']'
            cand --generate 'Print a completion script or the man page and exit'
            cand --mcp-config 'Print what adds agentread to an MCP host and exit, with the server settings given beside it'
            cand --hash 'Report the BLAKE3 hash of the file''s bytes in stats.content_hash'
            cand --outline 'List the file''s symbols (functions, classes, sections) with their lines, or a directory''s map'
            cand --enclosing 'With PATH:N or --start-line N, read the whole function or block that holds line N'
            cand --raw 'Read notebooks and PDFs as their bytes, not as a view'
            cand --signatures 'Show the file with function and method bodies elided and long comments cut to their first paragraph'
            cand --fit 'Show the richest view that fits the budget whole: the lines, else signatures, else the outline'
            cand --no-hint 'Print no footer in text mode (for pipelines)'
            cand --no-cache 'Parse every file afresh: keep no parsed outlines (also AGENTREAD_NO_CACHE=1)'
            cand --deny-secrets 'Refuse the built-in list of secret files (.env, *.pem, id_rsa, .netrc, ...)'
            cand --mcp 'Serve the `read` tool over the Model Context Protocol on standard input and output'
            cand --all 'Every line from the start line to the end, none cut: no limit, byte budget or line cut; streamed as text'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
        }
    ]
    $completions[$command]
}
