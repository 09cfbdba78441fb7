/// The zsh script: `_pricehost` on `_arguments`, for a directory on `$fpath` (as `_pricehost`)
/// or for `source`, which registers it with `compdef`.
extension CompletionScript {
    static var zsh: String {
        let commands = self.commands
        let described = commands.map { "        \(zshQuoted(zshEscaped($0.name, ":") + ":" + $0.summary))" }
        let cases = commands.map { command in
            let argument = command.argument.map { zshQuoted("1:" + zshEscaped(command.argumentName ?? "", ":\\") + ":" + zshAction($0)) }
            let specs = command.options.map(zshSpec) + (argument.map { [$0] } ?? [])
            let arguments = specs.isEmpty ? "_message 'no options'" : "_arguments \\\n            " + specs.joined(separator: " \\\n            ")
            return "        \(command.name))\n            \(arguments) ;;"
        }
        // Before the command: --help, --version, and any option (the parser takes them there too).
        let before = (HelpText.helpOptions.map { zshQuoted("(- *)" + $0.name + "[" + zshEscaped($0.meaning, "[]:\\") + "]") }
            + HelpText.options.map(zshSpec)).joined(separator: " \\\n    ")
        return "#compdef pricehost\n" + header(.zsh) + """


            # The provider names of the config in effect, from `pricehost __complete providers`
            # (its errors go nowhere, and it has 2 seconds), as a comma-separated list.
            _pricehost_providers() {
              local -a arguments names
              arguments=(__complete providers)
              [[ -n $_pricehost_config ]] && arguments+=(--config ${~_pricehost_config})
              if (( $+commands[timeout] )); then
                names=(${(f)"$(timeout 2 ${~_pricehost_program} $arguments 2>/dev/null)"})
              else
                names=(${(f)"$(${~_pricehost_program} $arguments 2>/dev/null)"})
              fi
              (( $#names )) && _values -s , provider $names
            }

            _pricehost() {
              local _pricehost_program=$words[1] _pricehost_config i
              # --config, wherever it is on the line: the providers are those of that config.
              for (( i = 2; i < CURRENT; i++ )); do
                case $words[i] in
                  --config) _pricehost_config=$words[i+1] ;;
                  --config=*) _pricehost_config=${words[i]#--config=} ;;
                esac
              done
              local curcontext=$curcontext state line ret=1
              typeset -A opt_args
              _arguments -C \\
                \(before) \\
                '1: :->command' '*:: :->argument' && ret=0
              case $state in
                command)
                  local -a commands
                  commands=(
            \(described.joined(separator: "\n"))
                  )
                  _describe -t commands 'pricehost command' commands && ret=0 ;;
                argument)
                  curcontext=${curcontext%:*:*}:pricehost-$words[1]:
                  case $words[1] in
            \(cases.joined(separator: "\n"))
                  esac && ret=0 ;;
              esac
              return ret
            }

            if [[ $zsh_eval_context[-1] == loadautofunc ]]; then
              _pricehost "$@"
            else
              compdef _pricehost pricehost
            fi
            """
    }

    /// `'--format=[text (default), …]:FORMAT:(text json csv)'`: an option for `_arguments`.
    static func zshSpec(_ spec: OptionSpec) -> String {
        let description = "[" + zshEscaped(CompletionScript.description(spec), "[]:\\") + "]"
        let repeated = spec.isRepeatable ? "*" : ""
        guard let value = spec.valueName else { return zshQuoted(repeated + spec.name + description) }
        return zshQuoted(repeated + spec.name + "=" + description + ":" + zshEscaped(value, ":\\") + ":" + zshAction(spec.completion))
    }

    /// What `_arguments` runs for a value.
    static func zshAction(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: " "
        case .choices(let words): "(" + words.joined(separator: " ") + ")"
        case .file: "_files"
        case .directory: "_files -/"
        case .providers: "_pricehost_providers"
        }
    }

    /// `text` with a backslash before each of `characters`.
    static func zshEscaped(_ text: String, _ characters: String) -> String {
        var escaped = ""
        for character in text {
            if characters.contains(character) { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    /// `text` in single quotes for zsh.
    static func zshQuoted(_ text: String) -> String {
        "'" + text.replacing("'", with: "'\\''") + "'"
    }
}
