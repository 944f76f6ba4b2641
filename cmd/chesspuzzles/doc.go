/*
The chesspuzzles command solves the classic chessboard puzzles: the N-queens problem (list,
count, check, complete and draw placements of N queens that do not attack each other) and
the knight's tour (find, check and count tours on any board).

Usage:

	chesspuzzles <group> <command> [arguments] [flags]

The groups and commands are:

	queens solve N          list every solution of the N×N board, in code order
	queens check POSITION   is it a solution; which queens attack which, and along which line
	queens count N|FROM-TO  count Q(N) and U(N) exactly, on all cores, resumable
	queens estimate N       how long a count of N would take here, and its result
	queens plan N           the tasks a count of N is cut into, without running it
	queens merge FILE...    add up the slices of "queens count N --shard I/K"
	queens status [N]       the distributed counts a NATS server holds, and how far they got
	queens one N            one solution, by construction (N up to 10^9) or --random
	queens complete POS     extend a partial placement to a solution, or prove none exists
	queens puzzle [N]       a puzzle: some queens given, the rest to place, one answer
	queens trace N          the backtracking search step by step, as a student writes it
	queens browse N         page through the solutions in the terminal
	queens regions          a region-queens puzzle (the daily "Queens" game), one answer
	queens regions solve F  count, solve and explain a grid of region letters or a picture
	queens regions read IMG read a puzzle from a screenshot (PNG, JPEG, GIF): its letters
	knight tour             find a knight's tour from a start square, open or --closed
	knight check [FILE]     check a tour given as squares, JSON or a numbered board
	knight complete SQUARES finish a tour from the squares visited so far, or say why not
	knight accessibility    how many knight moves reach each square (Warnsdorff by hand)
	knight count            count the tours of a board exactly (8×8 closed in 42 min)
	knight estimate         the memory and time a knight count will need, before it starts
	knight plan             the tasks of an open-tour count by pairs of end squares
	knight merge FILE...    add up the slices of "knight count --plan --shard I/K"
	serve                   the local web app and its JSON API (docs/web.md, docs/api.md)
	worker                  join a distributed count (docs/distributed.md)
	worker add NAME         issue a worker identity: NAME.creds, the credentials it joins with
	worker revoke NAME      revoke a worker identity; the running server drops it at once
	worker list             the issued identities and what each did
	worker server-config    the nats-server lines that trust these identities (a cluster of your own)
	version                 print the version and the commit it was built from
	completion SHELL        print a shell completion script: bash, zsh, fish or powershell

"chesspuzzles help COMMAND" or "COMMAND --help" shows a command's flags and examples;
"chesspuzzles" alone, a short overview.
Results go to standard output; progress, summaries and errors to standard error. Any
command that writes a file (--output FILE, -o FILE) writes a temporary file and renames
it at the end, so an interrupted run never leaves a truncated file; a device, a FIFO or /dev/stdout is written
through, never replaced, and a link's target is written, not the link. An answer that
cannot be written (a full disk) fails the command with exit 1. --json, where a command
has it, prints one JSON object a line (docs/json.md).

# Queens placements

A placement is written in any of these notations: --format chooses the output, input is
recognised whatever its notation.

	code       1-based column of each row from the top: 15863724 (comma-separated from N = 10)
	perm       0-based columns: 0,4,7,5,2,6,1,3
	coords     (x,y) pairs, x the column and y the row from the top, 1-based: (1,1) (5,2) …
	algebraic  chess squares: a8 e7 h6 f5 c4 g3 b2 d1
	board      a drawn board, Q and . (blank line between boards)
	json       one object a line: {"n":8,"code":"15863724","perm":[0,4,7,5,2,6,1,3]}

solve and check also draw: --format unicode (♛ on a shaded board, coloured on a terminal
unless NO_COLOR is set), svg or png (a real chessboard; check draws attacking pairs in
red; solve draws the first solution it lists). A partial position for complete writes "."
(code) or "-" (perm) for an empty row. Solutions are listed in ascending order of code. A
fundamental solution (--unique) is the member of its class under the eight symmetries of
the square with the smallest code.

# Queens commands

solve N lists every solution, streamed in constant memory, N from 1 to 64 (counting stops
being practical near 30). --limit K stops after K; --after CODE starts after the given
solution without enumerating what comes before it, so a script can page through a listing;
--unique lists fundamental solutions only; -o FILE writes to a file; -q hides the progress
line shown on a terminal.

check POSITION... reads a position from its arguments or, with none or "-", from standard
input; --n gives the board size where the position leaves it open. It names every pair of
queens that attack each other (an attack stops at the first queen on its line) and counts
the queens on each row, column and diagonal; --json prints the report as one object;
--max-attacks K lists the first K attacking pairs (all are counted).

count N counts Q(N), all solutions, and U(N), the fundamental ones, for N from 1 to 32,
exactly; FROM-TO prints a Markdown table, one row per N as it is done, and the time each N
took goes to standard error after it. --method join (half-boards joined from a table of
quarter-boards; fastest where the table fits --max-memory, default half the machine's) or
frames (border queens, then a search; any N, tiny memory); auto, the default, takes the
join to N = 29 (where it fits --max-memory) and frames beyond, and names its choice on standard error. The count is a
plan of independent tasks (--plan-version picks one of a method's plans) that --workers
goroutines share, biggest first. --json prints one object per N:
{"n":12,"total":14200,"unique":1787,"seconds":…}.

estimate N samples the plan with Knuth's random-probe estimator and times this machine on
the plan's own tasks for about a second of the thread's CPU time (so other load does not
inflate it), and prints the nodes, solutions and time on
--workers workers, each with ± two standard errors; --probes K (default 300000) trades time
for precision; --seed makes it repeatable; --json. Where a row set is too long to time
(the join from N = 24), the time is the cost model's for this processor's class, AVX-512
or AVX2 (the join's kernels differ), and the model line gives the other class's too: the
example below says 3.69 days on 1 worker on an AVX-512 processor, 7.71 days on AVX2.

	$ chesspuzzles queens estimate 24 --workers 2 --max-memory 8GiB
	N=24: method join, plan version 102: 4366 tasks, as "queens count 24" runs it
	time:       … on 1 worker, … on 2 (the cost model, ± …% at two standard errors of its sampled row sets: a part of a task of N=24 takes too long to time here)
	memory:     about 6.15 GiB on 2 workers
	model:      one core: frames 169 days, join … on this processor's class, … (…); bench/cost.sh measured both; --method auto takes the faster one that fits --max-memory

plan N shows the plan a count would run, without running it: its tasks, their estimated
cost and balance; --method and --plan-version as for count; --json.

one N prints one solution of the N×N board (N = 1 or 4 ≤ N ≤ 10^9) by an explicit
construction that streams in constant memory; with --random, a random solution by local
search (N ≤ 10^8, 4.5 bytes a queen; --seed makes it repeatable, otherwise the seed used is
printed on standard error). N = 2 and 3 have no solution: exit 1.

complete POSITION... extends the given queens (any rows, any notation, N ≤ 10^6) to a
solution. With at most 64 empty rows the search is exact; with more it is a local search
that finds completions but cannot rule them out. --timeout (default 10s, 0 for none)
bounds it: exit 3 when undecided in time.

puzzle [N] (or --n N, 6 to 20) makes a "place the remaining queens" puzzle whose answer is
unique; --level easy, medium or hard; --seed picks it, the same seed giving the same
puzzle. --format text draws the board with rank and file labels and names the given
queens as squares, which complete reads; --solution prints the answer after it; svg, png
or json.

trace N (4 to 12) shows the row-by-row backtracking search one step a line: a square
tried, attacked by the queen on which square, a queen placed, a dead end on a rank, a
queen removed, a solution; it stops at the first solution unless --all; --json writes one
object a step.

merge FILE... adds up the JSON slices that count --shard I/K printed, refusing (exit 2) a
set that is not exactly the K slices of one plan of this build, or a result impossible for
its task; --verify FRACTION recomputes that share of the tasks; --replicas R wants every
slice from R independent runs and refuses (exit 1) any task whose results differ. A
checksum catches accidents, not forgery; --replicas and --verify stand against that. --json.
Every whole count (local, merged or distributed) of N ≤ 27 is also held to the published Q(N)
and U(N) (OEIS A000170, A002562): a total that disagrees is refused, never printed.

browse N shows the solutions on the left and the selected one drawn on the right: ↑/↓ or
k/j move, PgUp/PgDn a screen, Home the first, End the last, u switches between all and
fundamental solutions (and back to where it was), q quits. It needs a terminal.

regions makes a region-queens puzzle: an N×N grid (N from 5 to 20) cut into N regions, to
be filled with N queens, one in every row, column and region, no two touching. The answer is
unique (proved by counting) and reached without guessing by the techniques of --level easy,
medium or hard; --seed makes it repeatable (without it, today's date YYYYMMDD: the page's
puzzle of the day); --format text (a "# N×N, level, seed" header, then region letters), svg
or png (colour-blind-safe colours plus letters) or json; --solution shows the answer.
"regions solve FILE|-" reads such a grid (regions may be in several pieces; # lines are
skipped) and prints the number of solutions (0, 1 or "more than one"), a solution, and with
--explain each step in words with its technique and the level; FILE may be a screenshot of
the puzzle instead. "regions read IMAGE" prints the puzzle a screenshot or picture shows
(PNG, JPEG or GIF: the daily game's, another app's, ours), as letters or with --format json
as n and regions; a picture it cannot read exits 2 with one line ("no grid found", "found 9
columns but 8 rows").

# Progress, checkpoints and distribution

Long commands report progress on standard error, all the same way (count, count --shard,
the distributed coordinator, solve, knight count): a bar on a terminal, otherwise a plain
line every 5 seconds, and nothing with --quiet (-q). A line reads

	N=17: 1247/4319 tasks, 28.9%, 2.31e+08 nodes/s, ETA 14s, 27598576 solutions so far

what runs, units done of the total, the share of the work (for count weighted by each
task's estimated cost), the rate, the time left ("?" until known) and a note. solve counts
the columns of the top row it has gone through and shows nothing while the listing itself
goes to the terminal. The distributed coordinator and worker also log timestamped lines.
Ctrl-C stops any command: it exits 130 after saving what can be resumed.

count --checkpoint FILE appends every finished task to FILE at once (one write each,
fsync'd at least every second and at the end; every line carries a CRC-32). After Ctrl-C
(exit 130), SIGKILL or a crash, the same command resumes and ends with the exact count. A
checkpoint of another N or plan version, or a damaged one, is refused with exit 2.

	$ chesspuzzles queens count 16 --checkpoint q16.ckpt       # Ctrl-C after a moment
	N=16: method join, plan version 102, memory about … (quarter table …)
	chesspuzzles: queens count: interrupted                     # exit 130
	$ chesspuzzles queens count 16 --checkpoint q16.ckpt
	N=16: method join, plan version 102, memory about … (quarter table …)
	N=16: resuming from the checkpoint: … of 537 tasks done, … solutions so far
	16 queens: 14772512 solutions, 1846955 fundamental
	N = 16 counted in … s

The examples' "…" stands for what differs from run to run and machine to machine.

count --shard I/K (0 ≤ I < K) computes the I-th of K fixed slices of the plan and prints
it as one JSON line, for batch schedulers; merge adds the slices up.

count --distributed runs the count through an embedded NATS JetStream server (--nats-listen
ADDR, default 127.0.0.1:4222; --state DIR keeps its store, default
$XDG_STATE_HOME/chesspuzzles/nats or ~/.local/state/chesspuzzles/nats, and running again
with the same DIR resumes the job) that workers join; --nats URL uses an existing server
instead (a cluster of your own: "worker server-config" prints the lines its servers need to
trust the identities of DIR, and --stream-replicas 3 keeps three copies of what the
coordinator stores); --metrics-listen ADDR serves Prometheus metrics at /metrics and a
status page at / while the coordinator runs; every worker connects under an identity the operator issued ("worker add NAME
[--state DIR] [-o FILE]" writes NAME.creds, mode 0600: a NATS user JWT signed by the account
key kept in DIR; "worker revoke NAME" revokes it, "worker list" lists them with what each
did; a token alone gets nothing), which may publish only its own requests and results, and
the coordinator accepts a result only from the identity that holds the task's live lease in
this run (docs/distributed.md); --replicas 2 has every task computed by two distinct
identities, the second picked at random by the coordinator, a disagreement settled by the
coordinator computing the task itself and the identity shown wrong quarantined (its results
computed again); --replicas 3 has a third identity drawn as well, every task counted only
when all three agree, so that two colluding identities never confirm a lie (3× the CPU);
the default at an N with no published count is two identities a task, a third while
fewer than 11 identities have joined (up to 3× the CPU of one computation; among 11 or
more, two colluders confirm a lone lie at most once in 10), --replicas 1 otherwise; --adaptive instead computes twice every task of an identity until 60 of its
results are confirmed, then a share of 0.1 drawn by the coordinator; --verify FRACTION (default 0.02) has that share of tasks recomputed by another
identity, drawn among every identity seen in the run once --min-identities K (default 3)
have been seen, recomputing itself those no worker verified within --verify-wait (default 1m);
--ack-wait (default 30s) is how long a silent worker keeps a task; --workers 0 keeps the
coordinator from computing; --token TOKEN, --token-file FILE or --creds FILE give the
coordinator's own credentials for a --nats server that wants them; a --state DIR that
others may write is refused; --log-format text or json. queens status [N] --state DIR
lists the jobs of the coordinator running on DIR (or --nats URL), with the rate and the
time left. worker --nats URL --creds FILE (or --identity NAME, for users and passwords an
operator made) pulls tasks (--cores at once, default one per core; a knight task within
--max-memory, default half the machine's memory over --cores), logs every --every
(default 30s) and with --verbose every task, names itself --name, and on Ctrl-C or SIGTERM
hands its tasks back and exits 130. See
docs/distributed.md.

# Knight's tours

Boards are --size N (N×N) or --board RxC (R rows, C columns), at most 2^27 squares for
tour and check and 64 for count. Squares are algebraic (e4; a1 is the bottom-left
corner) while the board has at most 26 columns, or file,rank counted from 1 (5,4 is e4) on
any board.

tour finds a tour from --start (default a1); --closed asks for a closed tour. --method
auto (the default) finds one wherever one exists; --method warnsdorff follows Warnsdorff's
rule and says so when it gets stuck. When no tour exists it exits 1 with the reason.
--format board (move numbers, the default), squares, json ({"rows","cols","closed","path"}
with 0-based [row, col] pairs, row 0 at the top), svg, png, or none (find the tour, print
nothing); --output FILE.

check [FILE] reads a tour (square names, the JSON of tour, or a board of move numbers) from
FILE or standard input and says whether it is a tour, open or closed; --size or --board
where the input leaves the board open.

complete SQUARES finishes a tour that begins with the given squares, in order (the path
made by hand so far); --closed; --format and --output as for tour. When no tour begins so
it exits 1 and says why, naming the square (a8 is cut off), with the rules of tour first;
--timeout (default 10s) bounds the search: exit 3 when undecided.

accessibility prints how many knight moves reach each square, with rank numbers and file
letters; with --after "a1 b3 …" the knight has made those moves, visited squares show as
"." and the knight as "N".

count counts the directed open tours of the board, those from --start, or with --closed the
undirected closed tours, exactly, on one core. --method search (backtracking, boards of at
most 64 squares) is fastest on 5×5, 5×6, 6×6 and from a start on 5×7; dp (a frontier
sweep, column by column) and join (for closed tours, two mirror halves of the sweep) take
any board whose short side is at most 8, in time and memory growing with that side: 6×8
closed in seconds, 7×7 open in 7.0 minutes and 880 MiB, 8×8 closed in 42 minutes and 3.2
GiB. --max-memory (default half the machine's) stops a count that would need more (exit
2). estimate, with the same flags, says beforehand what a count will need: it runs the
first cells of the sweep and extrapolates. --spill DIR counts by dp with its layers on disk:
the layer after each cell is sealed in DIR (compressed, checksummed), the states a cell
makes spill there past --max-memory (DIR holds about two layers at once), and the same
command run again after a stop (Ctrl-C, a kill, a lost machine) resumes from the last layer
sealed, or inside the cell after it from its cut: at least every --cut-every (default 10m)
and whenever they pass --max-memory, the states a cell made spill and the point reached
is sealed; a damaged layer or cut, or DIR holding another count's, is refused (exit 2). Progress
lines give the bytes on disk, freed and free.

--start S --end E counts the open tours from S to E, by the dp sweep with both ends fixed.
--plan counts the directed open tours as the tasks "knight plan" lists, one for each class
of pairs of end squares under the board's symmetries (136 on 8×8), each by that sweep: a
task holds a fraction of the whole sweep's states (6×6: its largest 14 times fewer). With
--checkpoint FILE every finished task is recorded (resumed as for queens; a task cut short
is counted again); --shard I/K -o FILE counts the tasks whose id is I modulo K into a
result file with a checksum, and merge sums a complete set of them, refusing (exit 2) a
missing, doubled, changed or foreign file and (exit 1) a total unlike the published count.
--plan --split LEVELS (as "knight plan --split" lists them) takes instead the tasks of a
split of the whole sweep: at cell CELL of a level cCELLkPARTSfFAR every state goes to one
of PARTS parts by a hash of its FAR cells furthest ahead (0: of the whole state), and a
task sweeps the board keeping its part of each level; the parts sum to the whole count.
--plan --distributed (or --nats URL) runs the tasks through NATS as queens count
--distributed does, with its flags (--state, --nats-listen, --verify, --replicas, --adaptive,
--verify-wait, --min-identities, --ack-wait, --token, --token-file, --creds, --log-format), identities and
workers: the job is named for its plan (k<R>x<C>-open-ends-v1 for the end pairs,
k<R>x<C>-open-split-LEVELS-v1 for a split), and --workers K (default 1) runs K tasks at
once in this process, sharing --max-memory.

# Web app

serve listens on --addr (default 127.0.0.1:8080: loopback only; 127.0.0.1:0 picks a free
port and prints it) and serves the page and the JSON API. On loopback it answers only
requests addressed to localhost, 127.0.0.1 or [::1]; --allow-host NAME adds a host name.
--timeout (default 10s) bounds each request; --max-heavy (default: the number of CPUs)
bounds the searches running at once. Ctrl-C lets running requests finish.

completion bash, zsh, fish or powershell prints the shell's completion script;
--no-descriptions leaves the descriptions of commands and flags out.

# Exit codes

	0    done
	1    the answer is "no": a check found attacks, no tour or solution exists; or a count
	     or merge refused a total it could not cross-check, naming the tasks and identities
	2    bad input or usage; one line on standard error says what was wrong and what is allowed
	3    undecided within the time limit given
	130  interrupted

Errors are one line: "chesspuzzles: <group> <command>: what was wrong and what is allowed".

# Environment

	NO_COLOR                 no colour in unicode boards and the terminal browser
	CHESSPUZZLES_NATS_TOKEN  default of --token for count --nats and worker (a --nats server of your own)
	XDG_STATE_HOME           where --state defaults to

# Examples

	chesspuzzles queens solve 8 --unique --format algebraic
	chesspuzzles queens check a8 e8 h1 --n 8 --format svg -o conflicts.svg
	chesspuzzles queens count 1-14
	chesspuzzles queens count 18 --checkpoint q18.ckpt
	chesspuzzles queens one 1000000 --random --seed 1 --format perm -o m.txt
	chesspuzzles knight tour --board 6x9 --start 3,5 --closed --format squares
	chesspuzzles knight count --size 6 --closed
	chesspuzzles serve --addr 127.0.0.1:9000
*/
package main
