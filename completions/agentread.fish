complete -c agentread -s s -l start-line -d 'First line to show, 1-based [default: 1]' -r -f
complete -c agentread -s n -l limit -d 'Most lines to show, 1-2000 [default: 500]' -r -f
complete -c agentread -l tail -d 'Show the last N lines (1-2000) instead of a start line' -r -f
complete -c agentread -l start-char -d 'Begin the first line of the window at character C, to page inside a long line [default: 1]' -r -f
complete -c agentread -s C -l context -d 'With a PATH:N target, show K lines before and after line N (0-999)' -r -f
complete -c agentread -l if-changed -d 'Answer `unchanged`, without content, when the file\'s hash is HASH' -r -f
complete -c agentread -l max-tokens -d 'Budget for the window\'s content in o200k_base tokens, 1-1000000 [default: none; 9000 with --mcp]' -r -f
complete -c agentread -s f -l format -d 'Output format [default: text; json with --call]' -r -f -a "text\t'the numbered lines and a footer'
json\t'one JSON object per PATH, one per line'
xml\t'one XML element per PATH'"
complete -c agentread -l numbers -d 'Line-number style' -r -f -a "pipe\t'`%4d | ` (widens past 9999)'
tab\t'`%6d<TAB>`, as `cat -n` does'
colon\t'`N: ` (no padding)'
compact\t'`N|` (no padding, no space): the leanest numbering in tokens'
none\t'no numbers: the lines as they are'"
complete -c agentread -l root -d 'Workspace root; nothing outside it is read [default: $AGENTREAD_ROOT, else the git work tree holding the current directory, else the current directory]' -r -f -a "(__fish_complete_directories)"
complete -c agentread -l max-line-chars -d 'Cut longer lines to N characters (1-1000000), marked ` … [+K chars]` [default: 2000]' -r -f
complete -c agentread -l max-bytes -d 'Budget in bytes for one window\'s content, number prefixes included [default: 51200]' -r -f
complete -c agentread -l max-file-size -d 'Refuse larger files: bytes, or K, M, G, KiB, MiB, GiB (1024s), KB, MB, GB (1000s)' -r -f
complete -c agentread -l encoding -d 'Encoding: utf-8, auto, or a WHATWG label (gbk, shift_jis, windows-1252, utf-16le, ...) [default: utf-8]' -r -f
complete -c agentread -l color -d 'When to colour the output; NO_COLOR is honoured by auto' -r -f -a "auto\t'on a terminal, unless NO_COLOR is set'
always\t'always, even when NO_COLOR is set'
never\t'never'"
complete -c agentread -l roots-timeout -d 'With --mcp: how long a client\'s answer to roots/list is awaited, in seconds (fractions allowed) [default: 10]' -r -f
complete -c agentread -l call -d 'Take the parameters as a tool call\'s JSON arguments; `-` reads them from standard input' -r -f
complete -c agentread -l tool-schema -d 'Print the tool definition for an agent framework and exit' -r -f -a "json-schema\t'{"name","description","parameters"}'
openai\t'{"type":"function","function":{...}}'
anthropic\t'{"name","description","input_schema"}'"
complete -c agentread -l deny -d 'Refuse files matching this gitignore-style glob (repeatable) [also: $AGENTREAD_DENY, globs separated by \':\']' -r -f
complete -c agentread -l generate -d 'Print a completion script or the man page and exit' -r -f -a "bash\t''
zsh\t''
fish\t''
powershell\t''
elvish\t''
man\t'the man page (roff)'"
complete -c agentread -l mcp-config -d 'Print what adds agentread to an MCP host and exit, with the server settings given beside it' -r -f -a "claude\t''
codex\t''
codex-toml\t''
vscode\t''
cursor\t''
gemini\t''
opencode\t''
goose\t''
claude-desktop\t''"
complete -c agentread -l hash -d 'Report the BLAKE3 hash of the file\'s bytes in stats.content_hash'
complete -c agentread -l outline -d 'List the file\'s symbols (functions, classes, sections) with their lines, or a directory\'s map'
complete -c agentread -l enclosing -d 'With PATH:N or --start-line N, read the whole function or block that holds line N'
complete -c agentread -l raw -d 'Read notebooks and PDFs as their bytes, not as a view'
complete -c agentread -l signatures -d 'Show the file with function and method bodies elided and long comments cut to their first paragraph'
complete -c agentread -l fit -d 'Show the richest view that fits the budget whole: the lines, else signatures, else the outline'
complete -c agentread -l no-hint -d 'Print no footer in text mode (for pipelines)'
complete -c agentread -l no-cache -d 'Parse every file afresh: keep no parsed outlines (also AGENTREAD_NO_CACHE=1)'
complete -c agentread -l deny-secrets -d 'Refuse the built-in list of secret files (.env, *.pem, id_rsa, .netrc, ...)'
complete -c agentread -l mcp -d 'Serve the `read` tool over the Model Context Protocol on standard input and output'
complete -c agentread -l all -d 'Every line from the start line to the end, none cut: no limit, byte budget or line cut; streamed as text'
complete -c agentread -s h -l help -d 'Print help (see more with \'--help\')'
complete -c agentread -s V -l version -d 'Print version'
