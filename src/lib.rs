//! agentread: print a numbered, bounded window of a file for coding agents, people and
//! shell pipelines. Data flows one way: arguments → request → open (sandbox) → classify
//! (sniff) → read window → outcome → render.

// The layers, from the top: each module imports only from the ones below it
// (`scripts/check-layers.sh` keeps it so; ARCHITECTURE.md has the table).
mod answer;
pub mod args;
mod error;
mod mcp;
mod outcome;
mod render;
pub mod setup;
mod target;
pub mod workspace;
// The engines: they import nothing from the crate.
pub mod formats;
pub mod names;
pub mod read;
pub mod structure;

use std::ffi::{OsStr, OsString};
use std::io::{self, IsTerminal, Read, Write};

use clap::error::ErrorKind;
use clap::{CommandFactory, FromArgMatches};
use serde_json::Map;

use crate::args::cli::{self, Cli, Format};
use crate::args::request::{DEFAULT_MAX_BYTES, Request};
use crate::args::{params, request, schema};
use crate::error::Error;
pub use crate::error::{ErrorCode, exit_status};
/// How the MCP server finds the id of a line it cannot parse whole, for the fuzz driver
/// that checks the server answers that id.
#[doc(hidden)]
pub use crate::mcp::transport::salvage_id;
use crate::outcome::Answer;
/// The sniffer, also reachable at the crate root (the fuzz targets use `agentread::sniff`).
pub use crate::read::sniff;
use crate::render::{Printer, Style};
use crate::setup::{generate, hosts};

/// Runs agentread on `args` (the program name first) and returns the first failure, if
/// any: the process's exit status is [`exit_status`] of it.
pub fn run(args: Vec<OsString>) -> Option<ErrorCode> {
    // The matches are kept beside the parsed `Cli`: they say which arguments were given,
    // which the print-and-exit modes check.
    // The commonest command lines skip clap (see `Cli::plain`).
    let parsed = match Cli::plain(&args) {
        Some(cli) => Ok((cli, None)),
        None => Cli::command()
            .try_get_matches_from(&args)
            .and_then(|matches| {
                let cli =
                    Cli::from_arg_matches(&matches).map_err(|e| e.format(&mut Cli::command()))?;
                Ok((cli, Some(matches)))
            }),
    };
    let (cli, matches) = match parsed {
        Ok(parsed) => parsed,
        Err(e) => {
            if matches!(
                e.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                return e.print().err().and_then(|err| write_failed(&err, None));
            }
            let message = cli::clap_message(&e);
            let usage = cli::clap_tips(&e)
                + &format!(
                    "\n{}\n\nFor more information, try '--help'.\n",
                    Cli::command().render_usage()
                );
            let cwd = cwd_against(None);
            return reject(
                Error::invalid_param(message),
                // The raw arguments are walked for the format only when parsing failed.
                cli::format_hint(&args),
                Map::new(),
                cwd,
                &usage,
            );
        }
    };
    // A print-and-exit mode refuses what it would drop (SPEC §17).
    let unused = |mode: &str, what: &str, uses: &[&str]| {
        let other = request::unused_beside(matches.as_ref()?, mode, uses)?;
        let error = Error::invalid_param(format!(
            "{what} and exits; {other} cannot be combined with it."
        ));
        let format = cli.format.unwrap_or(Format::Text);
        Some(reject(error, format, Map::new(), cwd_against(None), ""))
    };
    if let Some(what) = cli.generate {
        if let Some(refused) = unused(
            "generate",
            "--generate prints a completion script or the man page",
            &[],
        ) {
            return refused;
        }
        let written = io::stdout().lock().write_all(&generate::generate(what));
        return written.err().and_then(|err| write_failed(&err, None));
    }
    if let (Some(host), Some(matches)) = (&cli.mcp_config, &matches) {
        if let Some(refused) = unused(
            "mcp_config",
            "--mcp-config prints what adds agentread to a host, with the server settings given beside it (--root, --deny, --deny-secrets, --max-bytes, --max-tokens, --max-line-chars, --max-file-size, --encoding, --numbers),",
            &request::MCP_CONFIG_CARRIES,
        ) {
            return refused;
        }
        return mcp_config(host, &cli, matches);
    }
    if cli.mcp {
        let format = cli::answer_format(cli.format, cli.call.is_some());
        return mcp_mode(cli, format);
    }
    if let Some(flavor) = cli.tool_schema {
        if let Some(refused) = unused(
            "tool_schema",
            "--tool-schema prints the tool definition",
            &[],
        ) {
            return refused;
        }
        let definition = schema::definition(flavor);
        let text = serde_json::to_string_pretty(&definition).unwrap_or_default() + "\n";
        let written = io::stdout().lock().write_all(text.as_bytes());
        return written.err().and_then(|err| write_failed(&err, None));
    }
    let cwd_root = cli.root.clone();
    let request = match Request::from_cli(cli, read_stdin_to_string) {
        Ok(request) => request,
        Err(rejected) => {
            let cwd = cwd_against(cwd_root.as_deref());
            return reject(rejected.error, rejected.format, rejected.params, cwd, "");
        }
    };
    serve(&request)
}

/// Answers every PATH of a valid request in turn; the exit code is the first failure's.
fn serve(request: &Request) -> Option<ErrorCode> {
    let terminal = io::stdout().is_terminal();
    let text = request.format == Format::Text;
    let no_color = std::env::var_os("NO_COLOR");
    let context = Style {
        format: request.format,
        max_bytes: request.settings.max_bytes,
        hint: request.hint,
        color: text && render::text::use_color(request.color, terminal, no_color.as_deref()),
        terminal: text && terminal,
        stderr_terminal: io::stderr().is_terminal(),
        // Only json and xml report it; text mode saves the system calls.
        cwd: match text {
            true => None,
            false => std::env::current_dir()
                .ok()
                .and_then(|d| request.root.relative(&d)),
        },
        several: request.targets.len() > 1,
        context_lines: request.call.context.is_some(),
        wording: request.wording(),
    };
    let mut out = io::BufWriter::with_capacity(64 * 1024, io::stdout().lock());
    let mut err = io::stderr().lock();
    let mut printer = Printer::new(&context);
    let mut failure = None;
    // The command line's PATHs each get the whole budget; the targets of `--call`'s
    // `paths` share one (SPEC §16).
    let mut budget = request.budget();
    for target in &request.targets {
        let answer = match request.all() {
            // Each line is written as it is read: nothing holds the whole file.
            true => {
                let label = answer::label(request, target);
                let mut stream = printer.stream(&mut out, &label);
                let answer = answer::answer(request, target, budget, Some(&mut stream));
                if let Some(e) = stream.failed() {
                    return write_failed(&e, failure);
                }
                answer
            }
            false => answer::answer(request, target, budget, None),
        };
        failure = failure.or(answer.failure());
        if request.shared_budget() {
            budget = budget.after(answer::shown_content(&answer));
        }
        // Flushed per answer, so that stdout and stderr keep their order in text mode.
        if let Err(e) = printer
            .print(&mut out, &mut err, &answer)
            .and_then(|()| out.flush())
            .and_then(|()| say_what_was_left_out(&mut err, request, &answer))
        {
            return write_failed(&e, failure);
        }
    }
    if let Err(e) = printer.finish(&mut out).and_then(|()| out.flush()) {
        return write_failed(&e, failure);
    }
    failure
}

/// Without a footer (`--no-hint`), a text window that stops before the end still says so
/// on stderr, so that a pipeline never loses lines without a word (SPEC §17).
fn say_what_was_left_out(
    err: &mut impl Write,
    request: &Request,
    answer: &Answer,
) -> io::Result<()> {
    // A `-C` window is the part of the file that was asked for.
    if request.hint || request.format != Format::Text || request.call.context.is_some() {
        return Ok(());
    }
    let read = match &answer.result {
        // A range is what was asked for, not a cut; so is a whole symbol (SPEC §15).
        Ok(outcome::Success::Text(read)) if !read.range => read,
        _ => return Ok(()),
    };
    let window = &read.window;
    let Some(next) = window.next_start_line().filter(|_| window.truncated()) else {
        return Ok(());
    };
    // A symbol cut by the limit or a budget is read on inside the symbol. In the caller's
    // words: `--call` takes parameters, and has no `--all`.
    let wording = request.wording();
    let how = match &read.symbol {
        Some(symbol) => {
            let (step, from_start) =
                render::hints::symbol_step(&read.facts.path, symbol, next, wording);
            match from_start {
                true => format!("{step} reads it from its start"),
                false => format!("{step} reads the rest of the symbol"),
            }
        }
        // --all reads lines, not a leaner view: the view is paged on.
        None if read.elided().is_some() => format!(
            "{} {} reads on",
            wording.flag(params::name::SIGNATURES),
            wording.set(&[(params::name::START_LINE, &next)])
        ),
        None if wording == params::Wording::Tool => {
            format!(
                "{} reads on",
                wording.set(&[(params::name::START_LINE, &next)])
            )
        }
        None => "--all reads the whole file".to_string(),
    };
    // With several files, the one it is said of (`==> a.rs <==` went to standard output).
    let which = match request.targets.len() > 1 {
        true => format!("{}: ", read.facts.path),
        false => String::new(),
    };
    writeln!(
        err,
        "agentread: {which}showing lines {}-{} of {}; {how}",
        window.start_line,
        window.end_line().unwrap_or(window.start_line),
        window.total_lines
    )
}

/// `--mcp`: checks that nothing per call was given, then serves until stdin closes.
fn mcp_mode(cli: Cli, format: Format) -> Option<ErrorCode> {
    let reject_now = |error: Error| reject(error, format, Map::new(), cwd_against(None), "");
    if let Some(flag) = request::mcp_conflict(&cli) {
        return reject_now(Error::invalid_param(format!(
            "--mcp serves tool calls, which give their own parameters; {flag} cannot be combined with it."
        )));
    }
    if io::stdin().is_terminal() {
        eprintln!(
            "agentread: this is an MCP server on standard input and output, for an agent host (see --mcp-config); press Ctrl-D or Ctrl-C to stop."
        );
    }
    let settings = match request::Settings::from_cli(&cli) {
        Ok(settings) => settings,
        Err(e) => return reject_now(e),
    };
    // A root the operator fixes (--root, AGENTREAD_ROOT) is the only one; otherwise the
    // client's roots are asked for.
    let fixed = match cli.root.clone().or_else(request::fixed_root_from_env) {
        Some(_) => match request::open_root(cli.root) {
            Ok(root) => Some(root),
            Err(e) => return reject_now(e),
        },
        None => None,
    };
    mcp::serve(settings, fixed)
}

/// `--mcp-config HOST`: the set-up for that host, with this binary's absolute path, the
/// root (`--root`, else the current directory) and the server settings given beside it.
fn mcp_config(host: &str, cli: &Cli, matches: &clap::ArgMatches) -> Option<ErrorCode> {
    let reject_now = |error: Error| reject(error, Format::Text, Map::new(), cwd_against(None), "");
    let Some(host) = hosts::Host::from_name(host) else {
        return reject_now(Error::invalid_param(format!(
            "Unknown host '{host}' for --mcp-config: use one of {}.",
            hosts::Host::names()
        )));
    };
    let path = |found: io::Result<std::path::PathBuf>, what: &str| match found {
        Ok(path) => path
            .into_os_string()
            .into_string()
            .map_err(|_| Error::invalid_param(format!("The {what} is not valid UTF-8."))),
        Err(e) => Err(Error::new(
            ErrorCode::IoError,
            format!("The {what} cannot be found: {}.", error::os_reason(&e)),
        )),
    };
    // The settings are checked as the server would check them, so that the set-up printed
    // starts a server.
    if let Err(error) = request::Settings::from_cli(cli) {
        return reject_now(error);
    }
    let root = match &cli.root {
        Some(dir) => request::open_root(Some(dir.clone())).map(|root| Ok(root.path_of(""))),
        None => Ok(std::env::current_dir()),
    };
    let root = match root {
        Ok(found) => found,
        Err(error) => return reject_now(error),
    };
    // The root is written first, made absolute; the other settings as they were given.
    let others: Vec<&str> = request::MCP_CONFIG_CARRIES
        .into_iter()
        .filter(|id| *id != "root")
        .collect();
    let mut settings = Vec::new();
    for arg in request::given_again(matches, &others) {
        match arg.into_string() {
            Ok(arg) => settings.push(arg),
            Err(_) => {
                return reject_now(Error::invalid_param(
                    "A setting given to --mcp-config is not valid UTF-8.",
                ));
            }
        }
    }
    let found = path(std::env::current_exe(), "path of this program")
        .and_then(|exe| Ok((exe, path(root, "root directory")?)));
    match found {
        Ok((exe, root)) => {
            let mut args = vec!["--mcp".to_string(), "--root".to_string(), root];
            args.extend(settings);
            let written = io::stdout()
                .lock()
                .write_all(hosts::config(host, &exe, &args).as_bytes());
            written.err().and_then(|err| write_failed(&err, None))
        }
        Err(error) => reject_now(error),
    }
}

/// Answers a failure that happened before any PATH could be read.
fn reject(
    error: Error,
    format: Format,
    params: Map<String, serde_json::Value>,
    cwd: Option<String>,
    usage: &str,
) -> Option<ErrorCode> {
    let failure = Some(error.code);
    let answer = Answer {
        label: String::new(),
        params_input: params,
        time_ms: 0,
        result: Err(error),
    };
    let context = Style {
        format,
        max_bytes: DEFAULT_MAX_BYTES,
        hint: true,
        color: false,
        terminal: false,
        stderr_terminal: false,
        cwd,
        several: false,
        context_lines: false,
        wording: params::Wording::Cli,
    };
    let mut out = io::stdout().lock();
    let mut err = io::stderr().lock();
    let written = Printer::new(&context)
        .print(&mut out, &mut err, &answer)
        .and_then(|()| match format {
            Format::Text if !usage.is_empty() => err.write_all(usage.as_bytes()),
            _ => Ok(()),
        })
        .and_then(|()| out.flush());
    match written {
        Ok(()) => failure,
        Err(e) => write_failed(&e, failure),
    }
}

/// The answer when agentread itself failed (a panic): INTERNAL, in the format asked for.
pub fn internal_failure(args: &[OsString]) -> Option<ErrorCode> {
    let error = Error::internal("agentread failed unexpectedly; please report this as a bug.");
    reject(error, cli::format_hint(args), Map::new(), None, "")
}

/// `context.cwd` for an answer given before the request was valid: relative to the root
/// the arguments name, when it can be opened.
fn cwd_against(root_flag: Option<&OsStr>) -> Option<String> {
    let root = request::open_root(root_flag.map(OsStr::to_os_string)).ok()?;
    root.relative(&std::env::current_dir().ok()?)
}

/// `--call -`'s JSON: one byte past the most a call may take is enough to refuse it.
fn read_stdin_to_string() -> io::Result<String> {
    let mut text = String::new();
    let most = request::MAX_CALL_BYTES as u64 + 1;
    io::stdin().lock().take(most).read_to_string(&mut text)?;
    Ok(text)
}

/// A failed write: a closed pipe ends the run quietly; anything else is IO_ERROR.
fn write_failed(err: &io::Error, failure: Option<ErrorCode>) -> Option<ErrorCode> {
    if err.kind() == io::ErrorKind::BrokenPipe {
        return failure;
    }
    let _ = writeln!(
        io::stderr(),
        "agentread: IO_ERROR: Writing the output failed: {}.",
        error::os_reason(err)
    );
    Some(ErrorCode::IoError)
}

#[cfg(test)]
mod tests {
    /// main turns a panic into INTERNAL with catch_unwind, whichever unwinder is linked.
    #[test]
    fn panics_unwind_to_catch_unwind() {
        let caught = std::panic::catch_unwind(|| panic!("a bug"));
        assert!(caught.is_err());
    }
}
