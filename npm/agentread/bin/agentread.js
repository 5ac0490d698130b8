#!/usr/bin/env node
// The `agentread` command of the npm package: finds this platform's binary, shipped in
// one of the optional dependencies `@agentread/<platform>-<arch>[-gnu|-musl]` (npm
// installs only the one whose `os`, `cpu` and `libc` match), and runs it with the same
// arguments. Standard input, output and error are the binary's own (inherited, not piped),
// so `agentread --mcp` speaks to its host directly; the exit code is the binary's, and a
// signal that ends it ends this process the same way.
"use strict";

const { spawn } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");

const SCOPE = "@agentread";
// Every platform package the release publishes, as `${process.platform}-${process.arch}`
// plus, on Linux, the C library the binary was linked for.
const PLATFORMS = [
  "darwin-arm64",
  "darwin-x64",
  "linux-arm64-gnu",
  "linux-arm64-musl",
  "linux-x64-gnu",
  "linux-x64-musl",
  "win32-x64",
];

/** glibc or musl, for the Linux packages; null elsewhere. */
function libc() {
  if (process.platform !== "linux") return null;
  // Node's diagnostic report names the glibc it runs on; a musl build has no such field.
  const report = typeof process.report?.getReport === "function" ? process.report.getReport() : null;
  if (report?.header?.glibcVersionRuntime) return "gnu";
  try {
    if (fs.readdirSync("/lib").some((name) => name.startsWith("ld-musl-"))) return "musl";
  } catch {
    // No /lib to look at: fall through to glibc, the common case.
  }
  return "gnu";
}

/**
 * The platform package names that can serve this machine, best first. The musl builds
 * are static, so a glibc machine can also run one when the glibc package is absent.
 */
function candidates() {
  const base = `${process.platform}-${process.arch}`;
  const c = libc();
  const names = c === "gnu" ? [`${base}-gnu`, `${base}-musl`] : c === "musl" ? [`${base}-musl`] : [base];
  return names.filter((name) => PLATFORMS.includes(name));
}

function binaryName() {
  return process.platform === "win32" ? "agentread.exe" : "agentread";
}

/** The binary's path, or null with the names that were looked for. */
function findBinary() {
  const override = process.env.AGENTREAD_BINARY_PATH;
  if (override) return { binary: override, tried: [] };
  const tried = [];
  for (const name of candidates()) {
    const pkg = `${SCOPE}/${name}`;
    tried.push(pkg);
    try {
      return { binary: require.resolve(`${pkg}/bin/${binaryName()}`), tried };
    } catch {
      // Not installed: try the next one.
    }
  }
  return { binary: null, tried };
}

function missing(tried) {
  const here = `${process.platform}-${process.arch}${libc() ? ` (${libc()})` : ""}`;
  const lines = [
    tried.length === 0
      ? `agentread: no prebuilt binary for ${here}; the npm package has ${PLATFORMS.join(", ")}.`
      : `agentread: the binary for ${here} is missing: ${tried.join(" or ")} is not installed.`,
  ];
  if (tried.length > 0) {
    lines.push(
      "It is an optional dependency of agentread: reinstall without --no-optional or",
      "--omit=optional (and, with a lockfile made on another platform, let npm update it).",
    );
  }
  lines.push(
    "The same binary comes with `pipx install agentread` (or `uvx agentread`), and",
    "AGENTREAD_BINARY_PATH names a binary for this launcher to run instead.",
  );
  process.stderr.write(`${lines.join("\n")}\n`);
  return 1;
}

// Not SIGUSR1: Node keeps it for its debugger.
const FORWARDED = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR2", "SIGWINCH"];

function run(binary, args) {
  const child = spawn(binary, args, { stdio: "inherit", windowsHide: false });
  // A signal sent to this process goes on to the binary; the binary decides what it means.
  const handlers = [];
  for (const signal of process.platform === "win32" ? ["SIGINT", "SIGTERM"] : FORWARDED) {
    const forward = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    };
    try {
      process.on(signal, forward);
      handlers.push([signal, forward]);
    } catch {
      // A signal this platform cannot listen for.
    }
  }
  child.on("error", (error) => {
    process.stderr.write(`agentread: could not run ${binary}: ${error.message}\n`);
    process.exit(1);
  });
  child.on("exit", (code, signal) => {
    for (const [name, handler] of handlers) process.removeListener(name, handler);
    if (signal) {
      // End the same way, so that a shell or host sees the signal and not an exit code.
      process.kill(process.pid, signal);
      // Still here (an ignored signal, or Windows): the shell convention.
      const number = require("node:os").constants.signals[signal] ?? 0;
      process.exit(128 + number);
    }
    process.exit(code ?? 1);
  });
}

function main() {
  const { binary, tried } = findBinary();
  if (binary && process.env.AGENTREAD_BINARY_PATH && !fs.existsSync(binary)) {
    process.stderr.write(`agentread: AGENTREAD_BINARY_PATH names ${binary}, which does not exist.\n`);
    process.exitCode = 1;
    return;
  }
  if (!binary) {
    process.exitCode = missing(tried);
    return;
  }
  run(binary, process.argv.slice(2));
}

if (require.main === module) {
  main();
}

module.exports = { PLATFORMS, candidates, libc, binaryName };
