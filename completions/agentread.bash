_agentread() {
    local i cur prev opts cmd
    COMPREPLY=()
    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
        cur="$2"
    else
        cur="${COMP_WORDS[COMP_CWORD]}"
    fi
    prev="$3"
    cmd=""
    opts=""

    for i in "${COMP_WORDS[@]:0:COMP_CWORD}"
    do
        case "${cmd},${i}" in
            ",$1")
                cmd="agentread"
                ;;
            *)
                ;;
        esac
    done

    case "${cmd}" in
        agentread)
            opts="-s -n -C -f -h -V --start-line --limit --tail --start-char --context --hash --if-changed --outline --enclosing --raw --max-tokens --signatures --fit --format --numbers --root --max-line-chars --max-bytes --max-file-size --encoding --color --no-hint --no-cache --roots-timeout --call --tool-schema --deny --deny-secrets --mcp --all --generate --mcp-config --help --version"
            if [[ ${cur} == -* ]] ; then
                COMPREPLY=( $(compgen -W "${opts}" -- "${cur}") )
                return 0
            fi
            case "${prev}" in
                --start-line)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                -s)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --limit)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                -n)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --tail)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --start-char)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --context)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                -C)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --if-changed)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --max-tokens)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --format)
                    COMPREPLY=($(compgen -W "text json xml" -- "${cur}"))
                    return 0
                    ;;
                -f)
                    COMPREPLY=($(compgen -W "text json xml" -- "${cur}"))
                    return 0
                    ;;
                --numbers)
                    COMPREPLY=($(compgen -W "pipe tab colon compact none" -- "${cur}"))
                    return 0
                    ;;
                --root)
                    COMPREPLY=()
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o plusdirs
                    fi
                    return 0
                    ;;
                --max-line-chars)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --max-bytes)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --max-file-size)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --encoding)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --color)
                    COMPREPLY=($(compgen -W "auto always never" -- "${cur}"))
                    return 0
                    ;;
                --roots-timeout)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --call)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --tool-schema)
                    COMPREPLY=($(compgen -W "json-schema openai anthropic" -- "${cur}"))
                    return 0
                    ;;
                --deny)
                    COMPREPLY=("${cur}")
                    if [[ "${BASH_VERSINFO[0]}" -ge 4 ]]; then
                        compopt -o nospace +o default +o bashdefault
                    fi
                    return 0
                    ;;
                --generate)
                    COMPREPLY=($(compgen -W "bash zsh fish powershell elvish man" -- "${cur}"))
                    return 0
                    ;;
                --mcp-config)
                    COMPREPLY=($(compgen -W "claude codex codex-toml vscode cursor gemini opencode goose claude-desktop" -- "${cur}"))
                    return 0
                    ;;
                *)
                    COMPREPLY=()
                    ;;
            esac
            COMPREPLY=()
            return 0
            ;;
    esac
}

if [[ "${BASH_VERSINFO[0]}" -eq 4 && "${BASH_VERSINFO[1]}" -ge 4 || "${BASH_VERSINFO[0]}" -gt 4 ]]; then
    complete -F _agentread -o nosort -o bashdefault -o default agentread
else
    complete -F _agentread -o bashdefault -o default agentread
fi
