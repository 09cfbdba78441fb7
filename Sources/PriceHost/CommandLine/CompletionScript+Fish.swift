/// The fish script: `complete` lines, each under a condition naming the command on the line.
extension CompletionScript {
    static var fish: String {
        let commands = self.commands
        var lines = ["complete -c pricehost -f"]
        for (name, _, description) in HelpText.helpOptions {
            lines.append("complete -c pricehost -n __pricehost_needs_command -l \(name.dropFirst(2)) -d \(fishQuoted(description))")
        }
        for command in commands {
            lines.append("complete -c pricehost -n __pricehost_needs_command -a \(command.name) -d \(fishQuoted(command.summary))")
        }
        for command in commands {
            let condition = fishQuoted("__pricehost_using \(command.name)")
            for spec in command.options {
                let value = spec.isFlag ? "" : " " + fishValue(spec.completion)
                lines.append("complete -c pricehost -n \(condition) -l \(spec.name.dropFirst(2))\(value) -d \(fishQuoted(description(spec)))")
            }
            if let argument = command.argument, argument != .nothing {
                lines.append("complete -c pricehost -n \(condition) \(fishValue(argument))")
            }
        }
        return header(.fish) + """


            # The command on the line, if there is one yet: the first word that is no option nor an option's value.
            function __pricehost_command
                set -l skip 0
                for token in (commandline -opc)[2..-1]
                    if test $skip = 1
                        set skip 0
                        continue
                    end
                    switch $token
                        case \(optionsTakingAValue.joined(separator: " "))
                            set skip 1
                        case '-*'
                        case '*'
                            echo $token
                            return 0
                    end
                end
                return 1
            end

            function __pricehost_needs_command
                not __pricehost_command >/dev/null
            end

            function __pricehost_using
                set -l command (__pricehost_command)
                test "$command" = $argv[1]
            end

            # The provider names of the config in effect, from `pricehost __complete providers` (its errors
            # go nowhere, and it has 2 seconds); after a comma, the list so far and each name not in it.
            function __pricehost_providers
                set -l tokens (commandline -opc)
                set -l arguments __complete providers
                for i in (seq 2 (count $tokens))
                    switch $tokens[$i]
                        case --config
                            if test $i -lt (count $tokens)
                                set arguments $arguments --config $tokens[(math $i + 1)]
                            end
                        case '--config=*'
                            set arguments $arguments --config (string replace -- --config= '' $tokens[$i])
                    end
                end
                set -l list (string replace -r -- '^--[a-z-]+=' '' (commandline -ct))
                set -l prefix ''
                if string match -q -- '*,*' $list
                    set prefix (string replace -r -- '[^,]*$' '' $list)
                end
                set -l names
                if command -q timeout
                    set names (timeout 2 $tokens[1] $arguments 2>/dev/null)
                else
                    set names ($tokens[1] $arguments 2>/dev/null)
                end
                for name in $names
                    if not contains -- $name (string split , -- $prefix)
                        echo $prefix$name
                    end
                end
            end

            \(lines.joined(separator: "\n"))
            """
    }

    /// The flags of `complete` for a value: whether it takes files, and what it offers.
    static func fishValue(_ completion: ValueCompletion) -> String {
        switch completion {
        case .nothing: "-x"
        case .choices(let words): "-x -a " + fishQuoted(words.joined(separator: " "))
        case .file: "-r -F"
        case .directory: "-x -a '(__fish_complete_directories (commandline -ct))'"
        case .providers: "-x -a '(__pricehost_providers)'"
        }
    }

    /// `text` in single quotes for fish.
    static func fishQuoted(_ text: String) -> String {
        "'" + text.replacing("\\", with: "\\\\").replacing("'", with: "\\'") + "'"
    }
}
