/// The bash script: a function `_pricehost` for `complete -F`, on nothing but bash itself
/// (no bash-completion package needed), reading `COMP_WORDS` as bash splits them
/// (`--name=value` is `--name`, `=`, `value` with the default `COMP_WORDBREAKS`).
extension CompletionScript {
    static var bash: String {
        let commands = self.commands
        let optionCases = commands.map { command in
            "        \(command.name)) echo \"\(command.options.map(\.name).joined(separator: " "))\" ;;"
        }
        let argumentCases = commands.compactMap { command in
            command.argument.map { "        \(command.name)) echo \"\(bashKind($0))\" ;;" }
        }
        // With no command yet, an option's value completes as the first command that takes it declares.
        let kindCases = (commands.flatMap { command in command.options.map { (command.name, $0) } } + HelpText.options.map { ("", $0) })
            .filter { $0.1.completion != .nothing }
            .map { "        \"\($0.0) \($0.1.name)\") echo \"\(bashKind($0.1.completion))\" ;;" }
        let repeatable = HelpText.options.filter(\.isRepeatable).map(\.name).joined(separator: " ")
        return header(.bash) + """


            # The provider names of the config in effect, from `pricehost __complete providers`:
            # its errors go nowhere, and it has 2 seconds.
            _pricehost_providers() {
                local program=$1 config=$2
                local -a arguments=(__complete providers)
                [[ -n $config ]] && arguments+=(--config "$config")
                if type -P timeout >/dev/null; then
                    timeout 2 "$program" "${arguments[@]}" 2>/dev/null
                else
                    "$program" "${arguments[@]}" 2>/dev/null
                fi
            }

            # A command's options.
            _pricehost_options() {
                case $1 in
            \(optionCases.joined(separator: "\n"))
                esac
            }

            # What completes a command's positional argument.
            _pricehost_argument() {
                case $1 in
            \(argumentCases.joined(separator: "\n"))
                    *) echo nothing ;;
                esac
            }

            # What completes the value of option $2 of command $1 (before the command: "" $2).
            _pricehost_kind() {
                case "$1 $2" in
            \(kindCases.joined(separator: "\n"))
                    *) echo nothing ;;
                esac
            }

            # True for an option that takes a value: the next word is that value.
            _pricehost_takes_value() {
                case $1 in
                    \(optionsTakingAValue.joined(separator: "|"))) return 0 ;;
                    *) return 1 ;;
                esac
            }

            # Sets COMPREPLY to the values of kind $1 that start with $2 ($3: the program, $4: its --config).
            _pricehost_value() {
                local kind=$1 cur=$2 prefix= name
                local -a names=()
                case $kind in
                    file) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
                    directory) compopt -o filenames 2>/dev/null; mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
                    providers)
                        # NAME[,NAME...]: the name after the last comma, leaving out those already listed.
                        if [[ $cur == *,* ]]; then prefix=${cur%,*},; cur=${cur##*,}; fi
                        for name in $(_pricehost_providers "$3" "$4"); do
                            [[ ,$prefix == *,"$name",* ]] || names+=("$name")
                        done
                        mapfile -t COMPREPLY < <(compgen -P "$prefix" -W "${names[*]}" -- "$cur") ;;
                    choices:*) mapfile -t COMPREPLY < <(compgen -W "${kind#choices:}" -- "$cur") ;;
                    *) COMPREPLY=() ;;
                esac
            }

            _pricehost() {
                local cword=$COMP_CWORD cur=${COMP_WORDS[COMP_CWORD]} prev=
                local program=${COMP_WORDS[0]} command= argument= config= option= reply= word i
                local -a used=() options=()
                local repeatable=" \(repeatable) "
                COMPREPLY=()
                ((cword > 0)) && prev=${COMP_WORDS[cword-1]}
                # The words before the cursor: the command, its argument, the options given, --config's value.
                for ((i = 1; i < cword; i++)); do
                    word=${COMP_WORDS[i]}
                    case $word in
                        --*=*)
                            used+=("${word%%=*}")
                            [[ ${word%%=*} == --config ]] && config=${word#*=} ;;
                        --*)
                            used+=("$word")
                            if [[ ${COMP_WORDS[i+1]} == = ]]; then
                                ((i += 2))
                            elif _pricehost_takes_value "$word"; then
                                ((i += 1))
                            else
                                continue
                            fi
                            [[ $word == --config ]] && ((i < cword)) && config=${COMP_WORDS[i]} ;;
                        =) ;;
                        *) if [[ -z $command ]]; then command=$word; else argument=$word; fi ;;
                    esac
                done
                [[ $program == "~/"* ]] && program=$HOME/${program#"~/"}
                [[ $config == "~/"* ]] && config=$HOME/${config#"~/"}
                # A value at the cursor: --name VALUE, or --name=VALUE (split at the = or not).
                if [[ $cur == = && $prev == --* ]]; then
                    option=$prev cur=
                elif [[ $prev == = ]] && ((cword > 1)) && [[ ${COMP_WORDS[cword-2]} == --* ]]; then
                    option=${COMP_WORDS[cword-2]}
                elif [[ $cur == --*=* ]]; then
                    option=${cur%%=*} reply=${cur%%=*}= cur=${cur#*=}
                elif [[ $prev == --* ]] && _pricehost_takes_value "$prev"; then
                    option=$prev
                fi
                if [[ -n $option ]]; then
                    _pricehost_value "$(_pricehost_kind "$command" "$option")" "$cur" "$program" "$config"
                    [[ -n $reply ]] && COMPREPLY=("${COMPREPLY[@]/#/$reply}")
                    return 0
                fi
                if [[ -z $command ]]; then
                    if [[ $cur == -* ]]; then
                        mapfile -t COMPREPLY < <(compgen -W "\(HelpText.helpOptions.map(\.name).joined(separator: " "))" -- "$cur")
                    else
                        mapfile -t COMPREPLY < <(compgen -W "\(commands.map(\.name).joined(separator: " "))" -- "$cur")
                    fi
                    return 0
                fi
                if [[ $cur != -* && -z $argument && $(_pricehost_argument "$command") != nothing ]]; then
                    _pricehost_value "$(_pricehost_argument "$command")" "$cur" "$program" "$config"
                    return 0
                fi
                # The command's options, but those given already (a repeatable one again).
                for word in $(_pricehost_options "$command"); do
                    if [[ " ${used[*]} " != *" $word "* || $repeatable == *" $word "* ]]; then options+=("$word"); fi
                done
                mapfile -t COMPREPLY < <(compgen -W "${options[*]}" -- "$cur")
                return 0
            }

            complete -F _pricehost pricehost
            """
    }

    /// What `_pricehost_value` takes for `completion`.
    static func bashKind(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: "nothing"
        case .choices(let words): "choices:" + words.joined(separator: " ")
        case .file: "file"
        case .directory: "directory"
        case .providers: "providers"
        }
    }
}
