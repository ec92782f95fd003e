//! `cargo autofix mcp`: the tool as a Model Context Protocol server on
//! stdin and stdout, for coding agents.
//!
//! One package per server, the one the command line names (as for every
//! command). A worker thread owns its session: measured at the first call
//! and kept while the package's files do not change, with the
//! localization and the evaluator that judges given patches, so a second
//! `validate` costs its build and its tests. Calls run one at a time, in
//! order. A cancelled call stops its child processes and removes its
//! scratch copies, as Ctrl-C does on the command line, and the server goes
//! on. The answers are the CLI's JSON; errors are tool errors with the
//! CLI's one-line message and its exit code.

use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::time::{Duration, Instant};

use rmcp::handler::server::common::schema_for_input;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, Implementation,
    JsonObject, ListToolsResult, PaginatedRequestParams, ProgressNotificationParam,
    ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, ServiceExt, schemars};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::sync::{mpsc as channel, oneshot};
use tokio_util::sync::CancellationToken;

use crate::app::cli::Args;
use crate::app::options::Options;
use crate::app::run_repair;
use crate::app::session::{self, Session};
use crate::cargo::Workspace;
use crate::evaluate::Ready;
use crate::exit::{Context, Error, Exit, Failure, Halt, Result};
use crate::localize::{self, Localization, localize};
use crate::reduce::reduce_test;
use crate::render::{self, Ranking};
use crate::repair::{GivenPatch, judge, ready_to_judge};
use crate::system::{Budget, cache, console, process, scratch};

/// `rank`'s input.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RankInput {
    /// How many lines of each ranking (overall, per failure group) and how many events to
    /// return; default 10
    top: Option<usize>,
}

/// `explain`'s input.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ExplainInput {
    /// The failure group, counted from 1 as `rank`'s `groups` lists them; default 1
    group: Option<usize>,
}

/// One patch to judge.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct PatchInput {
    /// A name for the patch in the answer; default `patch N`
    name: Option<String>,
    /// A unified diff (as `git diff` writes), paths relative to the package or workspace root
    diff: String,
}

/// `validate`'s input.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ValidateInput {
    /// The candidate patches, judged as one batch
    patches: Vec<PatchInput>,
    /// Reduce the best plausible patch to its essential edits and validate it with the whole
    /// `cargo test` on a clean copy; default false
    reduce: Option<bool>,
}

/// `repair`'s input.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct RepairInput {
    /// Seconds the whole repair may take; default the server's --time-limit (600 unless set)
    time_limit: Option<f64>,
    /// The search's random seed; default the server's --seed, else 0
    seed: Option<u64>,
}

/// `reduce_test`'s input.
#[derive(Debug, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReduceInput {
    /// The failing test, by its full name as `rank` lists it (`tests::wraps`)
    test: String,
}

/// A tool call, its input read.
#[derive(Debug)]
enum Call {
    Rank(RankInput),
    Explain(ExplainInput),
    Validate(ValidateInput),
    Repair(RepairInput),
    ReduceTest(ReduceInput),
}

impl Call {
    fn read(name: &str, arguments: Option<JsonObject>) -> Result<Call, ErrorData> {
        fn input<T: DeserializeOwned>(arguments: Option<JsonObject>) -> Result<T, ErrorData> {
            serde_json::from_value(Value::Object(arguments.unwrap_or_default()))
                .map_err(|error| ErrorData::invalid_params(error.to_string(), None))
        }
        Ok(match name {
            "rank" => Call::Rank(input(arguments)?),
            "explain" => Call::Explain(input(arguments)?),
            "validate" => Call::Validate(input(arguments)?),
            "repair" => Call::Repair(input(arguments)?),
            "reduce_test" => Call::ReduceTest(input(arguments)?),
            _ => {
                return Err(ErrorData::invalid_params(
                    format!("no tool is named `{name}`; tools/list lists them"),
                    None,
                ));
            }
        })
    }
}

/// The tools as `tools/list` shows them.
fn tools() -> Vec<Tool> {
    fn tool<T: schemars::JsonSchema + 'static>(
        name: &'static str,
        description: &'static str,
        output: Option<&str>,
        read_only: bool,
    ) -> Tool {
        let input = schema_for_input::<T>().expect("the inputs are objects");
        let mut tool = Tool::new(name, description, input);
        tool.output_schema = output.map(|schema| {
            let value: JsonObject = serde_json::from_str(schema).expect("the schemas are objects");
            Arc::new(value)
        });
        tool.annotations = Some(
            ToolAnnotations::new()
                .read_only(read_only)
                .destructive(false)
                .open_world(false),
        );
        tool
    }
    vec![
        tool::<RankInput>(
            "rank",
            "The package's most suspicious lines for its failing tests (spectrum-based fault localization, sharpened by slices, predicate switching, crash sites and single edits): the failing tests with their messages and panic locations, the overall ranking and one per failure group, each line with its evidence. The same JSON as `cargo autofix --rank-only --format json`. Start here when a test fails.",
            Some(render::json::RANKING_SCHEMA),
            true,
        ),
        tool::<ExplainInput>(
            "explain",
            "Why one failure group's lines rank where they do: its failing tests, crash site, critical predicates (conditions whose outcome, forced the other way, makes a failing test pass) and ranking as JSON, and the listing of `cargo autofix --explain` (dynamic slice, data dependences) as text.",
            None,
            true,
        ),
        tool::<ValidateInput>(
            "validate",
            "Judge candidate patches (unified diffs) in one batch against the whole test suite, without touching the package's files: per patch, whether it applies and builds, the failing tests it fixes, the passing tests it breaks, whether it passes every test (plausible), and how much it changes what the passing tests execute; best first. Much faster than running `cargo test` once per patch. With `reduce`, the best plausible patch is reduced and validated on a clean copy.",
            None,
            true,
        ),
        tool::<RepairInput>(
            "repair",
            "Search for a patch that makes every test pass (single edits at the suspicious lines, then a genetic search), reduce it and validate it on a clean copy, within a time limit. The report of `cargo autofix --format json`: the patch (a unified diff for `git apply`, not applied), its confidence (`likely` or only `plausible`, with reasons) and alternatives.",
            Some(render::json::REPORT_SCHEMA),
            true,
        ),
        tool::<ReduceInput>(
            "reduce_test",
            "The smallest version of a failing test that still fails the same way (delta debugging over its statements, conditions and literal arguments), as `cargo autofix reduce TEST --format json`, and the reduced function as text.",
            None,
            true,
        ),
    ]
}

/// The package, its options, and its session once measured.
struct Package {
    workspace: Workspace,
    /// The options of `rank`, `explain`, `validate` and `reduce_test`
    /// (those of `--rank-only`: the ranking the user reads).
    ranking: Options,
    /// The options of `repair` (a repair's localization).
    repairing: Options,
    open: Option<Open>,
}

/// A measured package, and what calls have computed on it since.
struct Open {
    session: Session,
    /// The package's files when it was measured (see [`Package::files`]).
    files: String,
    localization: Option<Localization>,
    judging: Option<Ready>,
}

impl Package {
    fn dir(&self) -> &Path {
        self.workspace
            .package
            .manifest_path
            .parent()
            .unwrap_or(&self.workspace.root)
    }

    /// A digest of the files of the package and of the members it links
    /// (but the target dir and hidden ones) and of the toolchain: an edit
    /// changes it.
    fn files(&self) -> String {
        let mut key = cache::Key::new("mcp session", &self.workspace.root);
        key.add_tree(self.dir(), &self.workspace.target_dir);
        for member in &self.workspace.linked {
            key.add_tree(member.dir(), &self.workspace.target_dir);
        }
        key.digest()
    }

    /// The session, measured again if a file of the package changed since.
    fn open(&mut self) -> Result<&mut Open> {
        let files = self.files();
        if self.open.as_ref().is_some_and(|open| open.files != files) {
            self.ranking
                .console()
                .status("Changed", "the package's files: measuring it again");
        }
        match &mut self.open {
            Some(open) if open.files == files => {
                // Measuring takes the build lock; a kept session takes it again.
                let console = open.session.console;
                let unlimited = Budget::unlimited();
                open.session.build_lock =
                    scratch::lock_target_dir(&self.workspace.target_dir, unlimited, |lock| {
                        session::blocked(&console, lock)
                    })?;
            }
            _ => {
                // The old session's scratch copies go first, and those
                // kept for reuse, which hold the files as they were.
                self.open = None;
                scratch::forget_given_back();
                let (workspace, options) = (self.workspace.clone(), self.ranking.clone());
                let session = Session::measure(workspace, options, Budget::unlimited())?;
                self.open = Some(Open {
                    session,
                    files,
                    localization: None,
                    judging: None,
                });
            }
        }
        Ok(self.open.as_mut().expect("opened above"))
    }

    /// Answers a call. The target dir's build lock is held while the call
    /// works, not between calls: a `cargo autofix` run of the user's waits
    /// for a call, not for the server to end.
    fn answer(&mut self, call: Call) -> Result<CallToolResult> {
        let answer = match call {
            Call::Rank(input) => self.rank(input),
            Call::Explain(input) => self.explain(input),
            Call::Validate(input) => self.validate(input),
            Call::Repair(input) => self.repair(input),
            Call::ReduceTest(input) => self.reduce_test(input),
        };
        if let Some(open) = &mut self.open {
            open.session.build_lock = None;
        }
        answer
    }

    /// The session with its localization (computed at the first call
    /// that needs it).
    fn localized(&mut self) -> Result<(&Session, &Localization)> {
        let open = self.open()?;
        open.session
            .baseline
            .check_worth_localizing(&open.session.console)?;
        if open.localization.is_none() {
            let session = &open.session;
            open.localization = Some(localize(
                &session.baseline,
                &session.options.localize,
                &session.console,
                Budget::unlimited(),
            )?);
        }
        let localization = open.localization.as_ref().expect("localized above");
        Ok((&open.session, localization))
    }

    fn rank(&mut self, input: RankInput) -> Result<CallToolResult> {
        let (session, localization) = self.localized()?;
        let mut value = render::json::localization(&ranking(session, localization), localization);
        let top = input.top.unwrap_or(10);
        let keep = |value: &mut Value| {
            if let Some(list) = value.as_array_mut() {
                list.truncate(top);
            }
        };
        keep(&mut value["ranking"]);
        keep(&mut value["predicates"]);
        if let Some(groups) = value["groups"].as_array_mut() {
            for group in groups {
                keep(&mut group["ranking"]);
            }
        }
        Ok(CallToolResult::structured(value))
    }

    fn explain(&mut self, input: ExplainInput) -> Result<CallToolResult> {
        let (session, localization) = self.localized()?;
        let count = localization.groups.len();
        let group = input.group.unwrap_or(1);
        if group == 0 || group > count {
            return Err(Failure::new(
                Exit::Usage,
                format!("there is no failure group {group}: the failing tests form {count}, counted from 1"),
            )
            .into());
        }
        let ranking = ranking(session, localization);
        let mut value = render::json::localization(&ranking, localization);
        let mut chosen = value["groups"][group - 1].take();
        chosen["group"] = json!(group);
        chosen["groups"] = json!(count);
        let mut result = CallToolResult::structured(chosen);
        let listing = render::explain::listing(&ranking, localization, Some(10));
        result.content.push(ContentBlock::text(listing));
        Ok(result)
    }

    fn validate(&mut self, input: ValidateInput) -> Result<CallToolResult> {
        let given: Vec<GivenPatch> = input
            .patches
            .into_iter()
            .enumerate()
            .map(|(i, patch)| GivenPatch {
                name: patch.name.unwrap_or_else(|| format!("patch {}", i + 1)),
                diff: patch.diff,
            })
            .collect();
        if given.is_empty() {
            return Err(Failure::new(Exit::BadPatch, "no patch given: `patches` is empty").into());
        }
        let open = self.open()?;
        let session = &open.session;
        session.baseline.check_worth_localizing(&session.console)?;
        if open.judging.is_none() {
            open.judging = Some(ready_to_judge(
                &session.baseline,
                &session.options.repair,
                &session.console,
                Budget::unlimited(),
            )?);
        }
        let ready = open.judging.as_mut().expect("made ready above");
        let judgement = judge(
            &given,
            &session.baseline,
            ready,
            &session.options.repair,
            input.reduce.unwrap_or(false),
            &session.console,
            Budget::unlimited(),
        )?;
        let mut result = CallToolResult::structured(render::judgement::json(&judgement));
        result
            .content
            .push(ContentBlock::text(render::judgement::text(&judgement)));
        Ok(result)
    }

    fn repair(&mut self, input: RepairInput) -> Result<CallToolResult> {
        let started = Instant::now();
        let mut options = self.repairing.clone();
        if let Some(seed) = input.seed {
            options.repair.seed = seed;
        }
        if let Some(seconds) = input.time_limit {
            if !(seconds.is_finite() && seconds > 0.0) {
                return Err(Failure::new(
                    Exit::Usage,
                    format!("time_limit must be a positive number of seconds, not {seconds}"),
                )
                .into());
            }
            // As the command line's --time-limit sets them.
            let limit = Duration::from_secs_f64(seconds.min(365.0 * 24.0 * 3600.0));
            options.repair.time_limit = Some(limit);
            options.localize.switching_budget = Some(limit / localize::SWITCHING_SHARE);
        }
        let open = self.open()?;
        let session = &open.session;
        session.baseline.check_worth_localizing(&session.console)?;
        // This call's time limit, from its start: no process runs past it.
        let budget = Budget::after(started, options.repair.time_limit);
        let (baseline, console) = (&session.baseline, &session.console);
        let localization = localize(baseline, &options.localize, console, budget)?;
        let repair = run_repair(baseline, &localization, &options, console, started, budget)?;
        let report = serde_json::to_value(&repair.report).context("cannot write the report")?;
        let mut result = CallToolResult::structured(report);
        if let Some(patch) = &repair.report.patch {
            result.content.push(ContentBlock::text(patch.clone()));
        }
        Ok(result)
    }

    fn reduce_test(&mut self, input: ReduceInput) -> Result<CallToolResult> {
        let open = self.open()?;
        let session = &open.session;
        let reduced = reduce_test(
            &session.baseline,
            &input.test,
            &session.options.repair.evaluation,
            &session.console,
            Budget::unlimited(),
        )?;
        let mut result = CallToolResult::structured(render::reduced::json(&reduced));
        result
            .content
            .push(ContentBlock::text(render::reduced::text(&reduced)));
        Ok(result)
    }
}

fn ranking<'a>(session: &'a Session, localization: &'a Localization) -> Ranking<'a> {
    Ranking {
        metric: session.options.localize.metric,
        suspects: &localization.overall,
        baseline: &session.baseline,
        data: &localization.data,
    }
}

/// A call for the worker, and where its answer and its progress go.
struct Job {
    id: u64,
    call: Call,
    cancelled: CancellationToken,
    progress: Option<channel::UnboundedSender<String>>,
    answer: oneshot::Sender<Result<CallToolResult, Failure>>,
}

/// The call the worker is answering now, if any: a cancellation stops
/// the work only while it is this call's.
type Running = Arc<Mutex<Option<u64>>>;

fn cancelled() -> Failure {
    Failure::new(
        Exit::Interrupted,
        "cancelled: child processes stopped, scratch copies removed",
    )
}

/// The worker: answers the calls one at a time, in order.
fn work(mut package: Package, jobs: mpsc::Receiver<Job>, running: Running) {
    for job in jobs {
        if job.cancelled.is_cancelled() {
            let _ = job.answer.send(Err(cancelled()));
            continue;
        }
        *running.lock().expect("running poisoned") = Some(job.id);
        console::forward(job.progress.map(|sender| -> Box<dyn Fn(&str) + Send> {
            Box::new(move |line| {
                let _ = sender.send(line.to_string());
            })
        }));
        let answer = package.answer(job.call).map_err(|error| error.described());
        console::forward(None);
        {
            let mut running = running.lock().expect("running poisoned");
            *running = None;
            process::uncancel();
        }
        let answer = match answer {
            Err(_) if job.cancelled.is_cancelled() => Err(cancelled()),
            answer => answer,
        };
        let _ = job.answer.send(answer);
    }
}

/// The server as rmcp sees it: the tools, and the way to the worker.
struct Server {
    tools: Vec<Tool>,
    jobs: mpsc::Sender<Job>,
    running: Running,
    next: AtomicU64,
}

impl Server {
    async fn call(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResult, ErrorData> {
        let call = Call::read(&request.name, request.arguments)?;
        let id = self.next.fetch_add(1, Ordering::SeqCst);
        let (progress, lines) = match context.meta.get_progress_token() {
            Some(token) => {
                let (sender, mut lines) = channel::unbounded_channel::<String>();
                let peer = context.peer.clone();
                let forwarding = tokio::spawn(async move {
                    let mut count = 0.0;
                    while let Some(line) = lines.recv().await {
                        count += 1.0;
                        let note =
                            ProgressNotificationParam::new(token.clone(), count).with_message(line);
                        let _ = peer.notify_progress(note).await;
                    }
                });
                (Some(sender), Some(forwarding))
            }
            None => (None, None),
        };
        let (answer, answered) = oneshot::channel();
        let job = Job {
            id,
            call,
            cancelled: context.ct.clone(),
            progress,
            answer,
        };
        if self.jobs.send(job).is_err() {
            return Err(ErrorData::internal_error(
                "the server's worker has stopped; start the server again",
                None,
            ));
        }
        let mut answered = answered;
        let answer = tokio::select! {
            answer = &mut answered => answer,
            () = context.ct.cancelled() => {
                {
                    let running = self.running.lock().expect("running poisoned");
                    if *running == Some(id) {
                        process::cancel();
                    }
                }
                answered.await
            }
        };
        if let Some(forwarding) = lines {
            // The sender went with the job: the last lines are sent first.
            let _ = forwarding.await;
        }
        Ok(match answer {
            Ok(Ok(result)) => result,
            Ok(Err(failure)) => tool_error(&failure),
            Err(_) => tool_error(&Failure::new(
                Exit::Internal,
                "the server's worker stopped while answering (a bug in cargo-autofix); start the server again",
            )),
        })
    }
}

/// A failure as a tool error: the CLI's line, its exit code and what that
/// code means.
fn tool_error(failure: &Failure) -> CallToolResult {
    CallToolResult::structured_error(json!({
        "error": failure.message,
        "exit_code": failure.exit.code(),
        "meaning": failure.exit.meaning(),
    }))
}

impl ServerHandler for Server {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("cargo-autofix", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "Fault localization and patch validation for the Rust package this server was started in. When its tests fail: `rank` for the most suspicious lines and the failing tests' messages; `explain` for why; `validate` to judge your candidate patches (unified diffs) in one batch instead of running `cargo test` per patch; `repair` for the tool's own search; `reduce_test` for a smaller failing test. The package's files are never modified.",
            )
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        Ok(ListToolsResult::with_all_items(self.tools.clone()))
    }

    fn get_tool(&self, name: &str) -> Option<Tool> {
        self.tools.iter().find(|tool| tool.name == name).cloned()
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.call(request, context).await.map(Into::into)
    }
}

/// `cargo autofix mcp`: settles the package and the options as the command
/// line says, then serves until the client closes stdin or a signal comes.
pub fn serve(args: Args, cwd: &Path) -> Result<Exit> {
    let mut ranking_args = args.clone();
    ranking_args.rank_only = true;
    let (workspace, ranking) = Session::settle(ranking_args, cwd)?;
    let (_, repairing) = Session::settle(args, cwd)?;
    let console = ranking.console();
    console.status(
        "Serving",
        format!("{} over MCP on stdin and stdout", workspace.package.name),
    );
    let (jobs, queue) = mpsc::channel();
    let running = Running::default();
    let worker = {
        let running = running.clone();
        std::thread::Builder::new()
            .name("mcp-worker".into())
            .spawn(move || {
                let package = Package {
                    workspace,
                    ranking,
                    repairing,
                    open: None,
                };
                work(package, queue, running);
            })
            .context("cannot start the server's worker thread")?
    };
    let server = Server {
        tools: tools(),
        jobs,
        running,
        next: AtomicU64::new(0),
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(async move {
        let service = server
            .serve(rmcp::transport::stdio())
            .await
            .map_err(anyhow::Error::from)
            .context("the MCP handshake failed")?;
        let cancel = service.cancellation_token();
        // A signal ends the server as it ends any command.
        tokio::spawn(async move {
            while !process::signalled() {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
            cancel.cancel();
        });
        let waited = service.waiting().await.map_err(anyhow::Error::from);
        waited.context("the MCP server failed")?;
        Ok::<_, Error>(())
    })?;
    // The jobs' sender went with the server: the worker ends its call and stops.
    let _ = worker.join();
    console.status("Stopped", "the client closed the connection");
    match process::stopped_by() {
        Some(exit) => Err(Halt::Signal(exit).into()),
        None => Ok(Exit::Success),
    }
}
