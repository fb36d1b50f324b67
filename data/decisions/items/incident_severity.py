"""Incident severity: incidents, alerts and log lines judged by written severity, paging and escalation rules.

Every rule the answer depends on is written into the question; the states carry the times, percentages,
counts and durations needed to apply it. Comments after an item show the working.
"""

from ._kit import choice, it, noul, score

DOMAIN = "incident_severity"
PREFIX = "incident"

# ---- questions --------------------------------------------------------------------------------------------

PAGE = noul(
    "Paging rules (times are the on-call team's local time, as shown in the alert):\n"
    "- SEV1 and SEV2 alerts page immediately, at any time of day or night.\n"
    "- SEV3 alerts page only on weekdays (Monday to Friday) between 08:00 and 20:00; at other times they go to "
    "the ticket queue without a page.\n"
    "- SEV4 alerts never page.\n"
    "- An alert whose status is 'resolved' never pages, and an alert for a service that is inside one of its "
    "announced maintenance windows at the alert time does not page.\n\n"
    "Should this alert page the on-call engineer?"
)

POSTMORTEM = noul(
    "Postmortem rule: a written postmortem is required if ANY of these is true: (1) the incident was SEV1 or "
    "SEV2; (2) it lasted more than 60 minutes from start to resolution, whatever its severity; (3) any customer "
    "data was lost; (4) the same root cause caused another incident in the 30 days before this one started. "
    "Otherwise no postmortem is required.\n\n"
    "Is a postmortem required for this incident?"
)

STATUS_PAGE = noul(
    "Status page rule: post a public status update when a customer-facing service has been degraded or "
    "unavailable for 10 minutes or more, measured from the first customer-facing error to the resolution time "
    "(or, if not yet resolved, to the latest timestamp shown), or as soon as customer data loss is confirmed. "
    "Internal tools (admin console, CI, internal wiki, staff VPN) never get a public post.\n\n"
    "Should a public status update be posted?"
)

ACK_SLA = noul(
    "Acknowledgement targets: SEV1 pages must be acknowledged within 5 minutes, SEV2 pages within 15 minutes, "
    "SEV3 pages within 60 minutes. Measure from the FIRST page sent for the incident to the first "
    "acknowledgement by a human on-call responder; automatic or bot acknowledgements do not count. A target is "
    "met if the acknowledgement comes at or before the limit.\n\n"
    "Was the acknowledgement target met?"
)

TEAM = choice(
    "Alert routing rules, applied in this order; the first that matches decides:\n"
    "1. Anything that suggests a security incident (suspicious logins, leaked credentials, malware, unusual "
    "data exfiltration) goes to security_oncall, at any time.\n"
    "2. Alerts with severity 'info' go to no_page (dashboard only).\n"
    "3. Alerts from database hosts (names starting postgres-, mysql- or redis-) go to database_oncall.\n"
    "4. Everything else goes to the SRE team on shift at the alert time in UTC: apac_sre 00:00-07:59, emea_sre "
    "08:00-15:59, amer_sre 16:00-23:59. Convert any timestamp with an offset to UTC first.\n\n"
    "Who should this alert go to?",
    {
        "apac_sre": "APAC SRE shift",
        "emea_sre": "EMEA SRE shift",
        "amer_sre": "Americas SRE shift",
        "database_oncall": "database on-call",
        "security_oncall": "security on-call",
        "network_oncall": "network on-call",
        "no_page": "no page; dashboard only",
    },
)

ESCALATION = choice(
    "Escalation policy:\n"
    "- SEV4: no action (none).\n"
    "- SEV3: post in the team channel (team_channel); no page.\n"
    "- SEV2: page the primary on-call (page_primary); if the primary has not acknowledged within 15 minutes of "
    "that page, also page the secondary (page_secondary).\n"
    "- SEV1: page the primary and the incident commander (page_incident_commander); if the incident has lasted "
    "more than 60 minutes, or customer data loss is confirmed, also notify the executive on duty "
    "(notify_executive).\n"
    "Steps, from lowest to highest: none, team_channel, page_primary, page_secondary, page_incident_commander, "
    "notify_executive.\n\n"
    "By the time of the latest entry shown, what is the highest step the policy requires?",
    {
        "none": None,
        "team_channel": None,
        "page_primary": None,
        "page_secondary": None,
        "page_incident_commander": None,
        "notify_executive": None,
        "notify_legal": "tell the legal team",
    },
)

NOTIFY = choice(
    "Notification rules for a data incident; apply the first rule that matches:\n"
    "1. Payment card numbers were exposed: notify_card_processor (within 24 hours).\n"
    "2. Personal data of EU or UK residents was exposed: notify_supervisory_authority (within 72 hours).\n"
    "3. Health records of US patients were exposed: notify_hhs.\n"
    "4. Only non-personal company data was exposed (source code, financials, internal documents without personal "
    "data): internal_review.\n"
    "5. No data was exposed at all (an outage, or an access attempt that was blocked): no_notification.\n\n"
    "Which notification applies?",
    {
        "notify_card_processor": None,
        "notify_supervisory_authority": None,
        "notify_hhs": None,
        "internal_review": None,
        "no_notification": None,
        "notify_customers_directly": "email the affected customers",
        "notify_police": "report to law enforcement",
    },
)

ALERT_HANDLING = choice(
    "Alert handling rules, applied in this order; the first that matches decides:\n"
    "1. The alert's service has an announced maintenance window covering the alert time: suppress_maintenance.\n"
    "2. An identical alert (same alert name AND same host) is already open: drop_duplicate.\n"
    "3. The same alert on the same host has fired 3 or more times in the 30 minutes up to and including this "
    "firing: group_flapping.\n"
    "4. The metric is back within its threshold at evaluation time: auto_resolve.\n"
    "5. Otherwise: fire.\n\n"
    "What should happen to this alert?",
    {
        "fire": "create the alert and notify",
        "suppress_maintenance": None,
        "drop_duplicate": None,
        "group_flapping": None,
        "auto_resolve": None,
        "escalate_to_manager": "send straight to the engineering manager",
    },
)

SEV = score(
    "Incident severity rules. Apply the first rule that matches, from the top:\n"
    "SEV1: customer data was lost or exposed, OR at least 25% of customers were affected for more than 15 "
    "minutes.\n"
    "SEV2: at least 5% of customers were affected (for any duration), OR a paid feature was completely "
    "unavailable to any customers for more than 30 minutes.\n"
    "SEV3: some customers were affected (under 5%), OR an internal-only system is down.\n"
    "SEV4: no customer impact and no internal system down.\n"
    "Percentages are shares of all active customers.\n\n"
    "Which severity is this incident?",
    [
        "SEV4: no impact",
        "SEV3: minor",
        "SEV2: major",
        "SEV1: critical",
    ],
)

LOG_SCORE = score(
    "Log scoring rule. Give each line a weight by its level: DEBUG and INFO = 0, WARN = 1, ERROR = 2, CRITICAL "
    "or FATAL = 3. Ignore lines from hosts whose names start with 'canary-' and lines tagged [synthetic]. The "
    "excerpt's score is the highest weight among the remaining lines, except that if 5 or more ERROR lines "
    "remain, the score is 3. Judge by the level field only, not by words in the message.\n\n"
    "What score does this excerpt get?",
    [
        "0: nothing above INFO",
        "1: worst remaining line is WARN",
        "2: worst remaining line is ERROR (fewer than 5 ERROR lines)",
        "3: a CRITICAL/FATAL line, or 5 or more ERROR lines",
    ],
)

IMPACT = score(
    "Impact rating. Compute customer-minutes = affected users x minutes of impact, from the start of impact to "
    "its end (if the impact is still ongoing, up to the latest timestamp shown). If the number of affected users "
    "changed during the incident, compute each phase separately and add them up.\n"
    "Levels: 0 = under 10,000 customer-minutes; 1 = 10,000 to 99,999; 2 = 100,000 to 999,999; 3 = 1,000,000 or "
    "more.\n\n"
    "Which impact level is this?",
    [
        "0: under 10,000 customer-minutes",
        "1: 10,000 to 99,999",
        "2: 100,000 to 999,999",
        "3: 1,000,000 or more",
    ],
)

SLA_CREDIT = score(
    "SLA credit rule for a 30-day month (43,200 minutes). Monthly uptime = (43,200 - qualifying downtime "
    "minutes) / 43,200. Downtime inside an announced maintenance window does not qualify, and neither does "
    "downtime caused by the customer's own misconfiguration. Credit: uptime 99.9% or higher: no credit; 99.0% up "
    "to but not including 99.9%: 10%; 95.0% up to but not including 99.0%: 25%; below 95.0%: 50%.\n\n"
    "Which credit applies for this month?",
    [
        "no credit",
        "10% credit",
        "25% credit",
        "50% credit",
    ],
)

EXPOSURE = score(
    "Data exposure severity. Sensitive categories: health information, payment card numbers, bank account "
    "numbers, government ID numbers, passwords. Exposed means seen by, or made available to, anyone not "
    "authorised to see it.\n"
    "0: no personal data exposed (only anonymous, aggregate, synthetic or company data, or nothing left "
    "authorised systems).\n"
    "1: personal data of fewer than 100 people exposed, none of it sensitive.\n"
    "2: personal data of 100 to 9,999 people exposed, none of it sensitive; OR sensitive data of fewer than 100 "
    "people.\n"
    "3: personal data of 10,000 or more people; OR sensitive data of 100 or more people.\n\n"
    "Which severity level is this exposure?",
    [
        "0: no personal data exposed",
        "1: low",
        "2: high",
        "3: critical",
    ],
)

# ---- items ------------------------------------------------------------------------------------------------

ITEMS = [
    # ---- paging (noul) ------------------------------------------------------------------------------------
    it(PAGE, {
        "alert": "CheckoutLatencyHigh",
        "service": "checkout-api",
        "severity": "SEV2",
        "status": "firing",
        "fired_at": "Sunday 2024-03-17 03:12 (Europe/London)",
        "summary": "p99 latency 4.8s (threshold 1.5s) for 10 minutes on checkout-api in eu-west-1",
        "labels": {"region": "eu-west-1", "cluster": "prod-eu-2", "tier": "customer-facing"},
        "team": "payments",
        "runbook": "https://runbooks.internal/payments/checkout-latency",
        "dashboard": "https://grafana.internal/d/checkout-overview",
        "maintenance_windows": [],
    }, True),
    it(PAGE, {
        "alert": "SearchIndexLagging",
        "service": "search-indexer",
        "severity": "SEV3",
        "status": "firing",
        "fired_at": "Saturday 2024-03-16 11:00 (Europe/Berlin)",
        "summary": "Index lag 22 minutes (threshold 10 minutes); new products not yet searchable, existing "
                   "products unaffected",
        "labels": {"region": "eu-central-1", "cluster": "search-prod"},
        "team": "discovery",
        "runbook": "https://runbooks.internal/discovery/index-lag",
        "maintenance_windows": [],
    }, False),  # SEV3 on a Saturday
    it(PAGE, """
        [ALERT] EmailBounceRateHigh — severity SEV3 — FIRING
        Service: transactional-email   Team: messaging
        Fired: Tuesday 2024-03-12 09:45 (America/New_York)
        Bounce rate 7.9% over the last 30 minutes (threshold 5%). Most bounces from a single ISP (hotmail.com),
        reason "421 4.7.0 temporarily deferred". Receipts and password-reset emails are affected.
        Maintenance windows for transactional-email: none scheduled.
    """, True),  # SEV3 on a weekday in hours
    it(PAGE, {
        "alert": "ImageResizeErrors",
        "service": "media-resizer",
        "severity": "SEV3",
        "status": "firing",
        "fired_at": "Wednesday 2024-05-22 20:30 (Asia/Singapore)",
        "summary": "3.1% of thumbnail resize jobs failing with 'unsupported colour profile'; originals are "
                   "stored fine and the listing pages fall back to a placeholder image",
        "labels": {"region": "ap-southeast-1", "queue": "resize-jobs"},
        "team": "media",
        "maintenance_windows": [],
    }, False),  # SEV3 after 20:00
    it(PAGE, {
        "alert": "APIAvailabilityLow",
        "service": "public-api",
        "severity": "SEV1",
        "status": "resolved",
        "fired_at": "Thursday 2024-05-23 02:03 (Europe/Dublin)",
        "resolved_at": "Thursday 2024-05-23 02:17 (Europe/Dublin)",
        "summary": "Availability 91.2% over 5 minutes (threshold 99.5%). Recovered after load balancer failover.",
        "labels": {"region": "eu-west-1", "lb": "public-api-alb-2"},
        "team": "platform",
        "maintenance_windows": [],
    }, False),  # resolved alerts never page
    it(PAGE, """
        PagerBridge notification preview
        alert=DatabasePrimaryDown service=orders-db severity=SEV1 status=firing
        time=Friday 2024-05-24 23:59 (America/Chicago)
        detail="primary orders-db-1 not responding to health checks for 90s; replica promotion has NOT started"
        owner=data-platform maintenance=none
        recent_changes="none in the last 24h"
    """, True),
    it(PAGE, {
        "alert": "CertificateExpiresIn30Days",
        "service": "partner-gateway",
        "severity": "SEV4",
        "status": "firing",
        "fired_at": "Monday 2024-05-20 10:00 (Europe/London)",
        "summary": "TLS certificate for partners.example.com expires on 2024-06-19; auto-renewal is not "
                   "configured for this certificate because it is issued by the partner's CA",
        "team": "platform",
        "maintenance_windows": [],
    }, False),  # SEV4 never pages
    it(PAGE, {
        "alert": "OrdersQueueBacklog",
        "service": "orders-service",
        "severity": "SEV2",
        "status": "firing",
        "fired_at": "Tuesday 2024-06-04 02:40 (Europe/Paris)",
        "summary": "orders queue depth 48,000 messages (threshold 5,000), consumers paused",
        "team": "commerce",
        "maintenance_windows": [
            {"service": "orders-service", "from": "2024-06-04 02:00", "to": "2024-06-04 04:00",
             "change": "CHG-4410 broker upgrade"},
        ],
    }, False),  # inside the orders-service maintenance window
    it(PAGE, {
        "alert": "OrdersQueueBacklog",
        "service": "orders-service",
        "severity": "SEV2",
        "status": "firing",
        "fired_at": "Wednesday 2024-06-05 04:10 (Europe/Paris)",
        "summary": "orders queue depth 31,500 messages (threshold 5,000) and rising",
        "team": "commerce",
        "maintenance_windows": [
            {"service": "orders-service", "from": "2024-06-05 02:00", "to": "2024-06-05 04:00",
             "change": "CHG-4418 broker config rollback"},
        ],
    }, True),  # window ended at 04:00
    it(PAGE, """
        Alert: PaymentsWebhookFailures (SEV3) — firing
        When: Friday 2024-06-07 19:59 (Europe/Madrid)
        Service: payments-webhooks · Team: payments
        What: 4.2% of outgoing merchant webhooks returning 5xx from the receiving side; retries are queued.
        Maintenance: none announced for payments-webhooks.
    """, True),  # weekday, before 20:00
    it(PAGE, {
        "alert": "ReportExportSlow",
        "service": "reporting-service",
        "severity": "SEV3",
        "status": "firing",
        "fired_at": "Monday 2024-06-10 07:55 (Australia/Sydney)",
        "summary": "CSV export p95 duration 94s (threshold 30s); exports complete but slowly, largest "
                   "workspaces most affected",
        "labels": {"region": "ap-southeast-2"},
        "team": "insights",
        "maintenance_windows": [],
    }, False),  # before 08:00
    it(PAGE, {
        "alert": "PushDeliveryDelayed",
        "service": "notifications-service",
        "severity": "SEV3",
        "status": "firing",
        "fired_at": "Thursday 2024-06-13 12:30 (Europe/London)",
        "summary": "Median push delivery delay 6 minutes (threshold 2 minutes)",
        "team": "messaging",
        "maintenance_windows": [
            {"service": "reporting-service", "from": "2024-06-13 12:00", "to": "2024-06-13 14:00"},
        ],
    }, True),  # the maintenance window is for another service
    # ---- postmortem required (noul) -----------------------------------------------------------------------
    it(POSTMORTEM, {
        "incident": "INC-6012",
        "title": "Card payments declined for Visa in FR",
        "severity": "SEV2",
        "started": "2024-08-06 14:02",
        "resolved": "2024-08-06 14:12",
        "customer_data_lost": False,
        "impact": "about 9% of French checkout attempts declined; customers could retry with another card",
        "root_cause": "bad routing rule pushed to the payment gateway config",
        "previous_incidents_same_cause": [],
    }, True),  # SEV2
    it(POSTMORTEM, {
        "incident": "INC-6019",
        "title": "Avatar uploads failing for some Android users",
        "severity": "SEV3",
        "started": "2024-08-07 09:30",
        "resolved": "2024-08-07 10:15",
        "customer_data_lost": False,
        "impact": "users on Android 9 and 10 could not upload HEIC profile pictures; the upload could be retried "
                  "with a JPEG",
        "root_cause": "new image library rejects HEIC files from older Android versions",
        "previous_incidents_same_cause": [],
    }, False),  # SEV3, 45 minutes, nothing else
    it(POSTMORTEM, """
        INC-6031 — "Invoice PDFs rendering without line items" — SEV3
        Started 14:10, resolved 15:25 (same day, 2024-08-12).
        Impact: about 60 customers downloaded incomplete PDFs; the invoices themselves were correct in the
        database and the PDFs regenerated fine after the fix. No data lost.
        Root cause: template change in the PDF service. First occurrence.
    """, True),  # 75 minutes > 60
    it(POSTMORTEM, {
        "incident": "INC-6040",
        "title": "Internal metrics dashboard showing stale data",
        "severity": "SEV4",
        "started": "2024-08-14 14:10",
        "resolved": "2024-08-14 15:05",
        "customer_data_lost": False,
        "impact": "engineers saw metrics up to 40 minutes old on the main Grafana board; alerting was unaffected "
                  "because it reads from a different Prometheus",
        "root_cause": "Grafana datasource pointed at a decommissioned Prometheus replica",
        "previous_incidents_same_cause": [],
    }, False),  # 55 minutes, SEV4, nothing else
    it(POSTMORTEM, """
        INC-6088 (SEV3) opened 2024-09-09 06:40, resolved 07:00.
        Symptom: mobile app could not reach api.example.com for users on older iOS versions.
        Root cause: the intermediate TLS certificate on the edge load balancer expired.
        Related: INC-5961 on 2024-08-19 was also caused by an expired certificate on the same edge load balancer.
        No customer data lost.
    """, True),  # same root cause 21 days before
    it(POSTMORTEM, {
        "incident": "INC-6075",
        "title": "Scheduled reports sent twice",
        "severity": "SEV3",
        "started": "2024-09-05 08:00",
        "resolved": "2024-09-05 08:30",
        "customer_data_lost": False,
        "impact": "around 1,100 customers received their Monday report email twice",
        "root_cause": "cron job ran on two nodes after a failover (leader election misconfigured)",
        "previous_incidents_same_cause": [{"id": "INC-5790", "date": "2024-07-20"}],
    }, False),  # previous one 47 days before, outside 30 days
    it(POSTMORTEM, """
        INC-6102 · SEV4 · 2024-09-17 16:20–16:30
        One customer reported that three draft documents they were editing disappeared after the autosave
        service restarted. We confirmed the drafts were never written to storage and cannot be recovered.
        Root cause: autosave buffer not flushed on SIGTERM. First time seen.
    """, True),  # customer data lost
    it(POSTMORTEM, {
        "incident": "INC-6110",
        "title": "Delayed order confirmation emails",
        "severity": "SEV3",
        "started": "2024-09-20 23:20",
        "resolved": "2024-09-21 00:15",
        "customer_data_lost": False,
        "impact": "order confirmations arrived up to 50 minutes late; all were delivered",
        "root_cause": "email provider rate-limited our sending domain",
        "previous_incidents_same_cause": [],
    }, False),  # 55 minutes across midnight
    it(POSTMORTEM, """
        INC-6131 — SEV3 — "Search results missing new listings"
        Start: 2024-10-02 23:20. Resolved: 2024-10-03 00:35.
        Cause: indexer consumer group stuck after a broker restart. No data lost — listings were indexed once the
        consumer restarted. No earlier incident with this cause.
    """, True),  # 75 minutes across midnight
    it(POSTMORTEM, {
        "incident": "INC-6140",
        "title": "Analytics events delayed",
        "severity": "SEV3",
        "started": "2024-10-08 10:02",
        "resolved": "2024-10-08 11:00",
        "customer_data_lost": False,
        "notes": "Events were buffered in Kafka and replayed; nothing was lost, dashboards caught up by 11:20.",
        "root_cause": "ClickHouse ingestion node ran out of disk",
        "previous_incidents_same_cause": [],
    }, False),  # 58 minutes, no data lost
    # ---- status page (noul) -------------------------------------------------------------------------------
    it(STATUS_PAGE, """
        #inc-checkout timeline (UTC)
        10:02 first customer-facing 502s on /checkout (synthetics + real users)
        10:06 on-call acknowledged, investigating payment-service pods
        10:09 error rate 22%; payment-service v2.31 deployed at 09:58 is the prime suspect
        10:11 rollback of payment-service v2.31 started
        10:15 error rate still 18%, rollback 60% complete
    """, True),  # 13 minutes and ongoing
    it(STATUS_PAGE, """
        #inc-checkout-2 timeline (UTC)
        10:02 first customer-facing 502s on /checkout
        10:04 on-call acknowledged; correlates with feature flag 'fast-3ds' turned on at 10:01
        10:07 flag reverted
        10:09 error rate back to baseline — resolved
        10:25 post-incident note: 340 failed checkout attempts, most customers retried successfully
    """, False),  # 7 minutes from first customer error to resolution
    it(STATUS_PAGE, {
        "incident": "INC-7003",
        "service": "CI (build runners)",
        "customer_facing": False,
        "timeline": [
            {"time": "13:00", "event": "all build runners failing to pull base images"},
            {"time": "13:20", "event": "registry mirror disk found full"},
            {"time": "14:10", "event": "registry mirror rebuilt"},
            {"time": "15:02", "event": "builds green again"},
        ],
        "note": "deploys were paused while CI was down; production was unaffected",
    }, False),  # internal tool
    it(STATUS_PAGE, {
        "incident": "INC-7011",
        "service": "document-storage",
        "customer_facing": True,
        "timeline": [
            {"time": "16:40", "event": "storage node failure during rebalance"},
            {"time": "16:42", "event": "confirmed: 5 customers' files uploaded in the last hour are unrecoverable"},
            {"time": "16:43", "event": "uploads healthy again on remaining nodes"},
        ],
    }, True),  # confirmed data loss
    it(STATUS_PAGE, """
        IT helpdesk note: the staff VPN concentrator in the London office was down from 08:10 to 08:50 after a
        firmware update. Remote employees could not reach internal tools (wiki, admin console, CI) during that
        time. No customer-facing services were affected and no customer tickets were raised.
    """, False),  # internal tool
    it(STATUS_PAGE, {
        "incident": "INC-7020",
        "service": "public API",
        "customer_facing": True,
        "timeline": [
            {"time": "14:50", "event": "p95 latency for customers rose from 300ms to 4s"},
            {"time": "14:58", "event": "identified noisy tenant saturating the shared cache"},
            {"time": "15:05", "event": "tenant rate-limited; latency normal — resolved"},
        ],
    }, True),  # 15 minutes
    it(STATUS_PAGE, """
        #inc-login (UTC)
        09:50 internal alert: auth-service canary error rate rising (no customer traffic on canary)
        09:56 canary build 7.4.0 identified as the cause; promotion to production already at 10%
        10:01 first customer-facing login failures
        10:05 canary pulled from rotation, rollback of the 10% started
        10:08 customer login failures continuing at 2%, investigating
    """, False),  # 7 minutes since the first customer-facing error
    it(STATUS_PAGE, {
        "incident": "INC-7034",
        "service": "site search",
        "customer_facing": True,
        "timeline": [
            {"time": "2024-11-02 23:55", "event": "search returning empty results for customers"},
            {"time": "2024-11-03 00:03", "event": "index alias found pointing at an empty index"},
            {"time": "2024-11-03 00:07", "event": "alias fixed, results back — resolved"},
        ],
    }, True),  # 12 minutes across midnight
    # ---- acknowledgement SLA (noul) -----------------------------------------------------------------------
    it(ACK_SLA, """
        INC-8101 (SEV1) — "EU checkout returning 503"
        Page log:
        03:14:00 page sent to primary (Ravi Menon) via phone call and push
        03:17:40 acknowledged by Ravi Menon
        03:21:10 incident commander joined the bridge
        03:48:00 mitigated by failing over to the standby region
    """, True),  # 3m40s
    it(ACK_SLA, {
        "incident": "INC-8107",
        "severity": "SEV1",
        "title": "Ledger writes failing for all merchants",
        "pages": [
            {"time": "2024-07-11T21:40:00Z", "to": "primary: Hannah Schulz", "type": "page"},
            {"time": "2024-07-11T21:45:30Z", "by": "Hannah Schulz", "type": "acknowledge"},
        ],
        "notes": "Hannah was driving and pulled over to acknowledge.",
    }, False),  # 5m30s > 5m
    it(ACK_SLA, """
        INC-8115 · SEV2 · "Android app cannot load order history"
        11:02 page → primary (Mateo Rossi)
        11:16 Mateo Rossi acknowledged
        11:31 mitigated by rolling back the API gateway route change
        12:05 resolved
    """, True),  # 14 minutes
    it(ACK_SLA, {
        "incident": "INC-8120",
        "severity": "SEV2",
        "title": "Webhook deliveries delayed for 7% of merchants",
        "pages": [
            {"time": "22:50", "to": "primary: Kemi Adebayo", "type": "page"},
            {"time": "23:05", "to": "primary: Kemi Adebayo", "type": "re-page"},
            {"time": "23:07", "by": "Kemi Adebayo", "type": "acknowledge"},
        ],
    }, False),  # 17 minutes from the first page
    it(ACK_SLA, """
        INC-8126 (SEV1) — "Login failing for all SSO customers"
        01:00:00 page sent to primary on-call (Daniel Kim)
        01:01:00 acknowledged by pagerbot (auto-ack: "incident linked to existing Slack channel")
        01:09:00 acknowledged by Daniel Kim
        01:30:00 identity provider certificate rotated, logins recovering
    """, False),  # bot ack does not count; human ack at 9 minutes
    it(ACK_SLA, {
        "incident": "INC-8133",
        "severity": "SEV3",
        "title": "Slow PDF exports for large workspaces",
        "pages": [
            {"time": "09:00", "to": "primary: Zanele Dlamini", "type": "page"},
            {"time": "09:58", "by": "Zanele Dlamini", "type": "acknowledge"},
        ],
        "notes": "Zanele was in the weekly planning meeting until 09:55.",
    }, True),  # 58 minutes
    it(ACK_SLA, """
        INC-8140 — SEV3 — "Image thumbnails missing on some listings" — page history
        16:20 page to primary (Ewa Zielinska)
        17:25 Ewa Zielinska acknowledged ("was in a customer call, sorry")
        17:50 thumbnail regeneration job restarted
    """, False),  # 65 minutes
    it(ACK_SLA, {
        "incident": "INC-8152",
        "severity": "SEV2",
        "title": "Search unavailable for 6% of users",
        "pages": [
            {"time": "2024-08-30 23:55", "to": "primary: Jamal Price", "type": "page"},
            {"time": "2024-08-31 00:05", "to": "secondary: Ines Duarte", "type": "escalation page"},
            {"time": "2024-08-31 00:08", "by": "Ines Duarte", "type": "acknowledge"},
        ],
    }, True),  # 13 minutes from the first page, by the secondary
    it(ACK_SLA, """
        INC-8160 (SEV1) "Payments API returning 500 for all requests", all times UTC
        14:00:00 first page to primary (Olivia Brown)
        14:05:00 re-page to primary (no response)
        14:06:10 Olivia Brown acknowledged
        14:20:00 rollback complete, error rate back to normal
    """, False),  # 6m10s from the first page
    it(ACK_SLA, {
        "incident": "INC-8171",
        "severity": "SEV1",
        "title": "Media uploads failing with 500 for all users",
        "pages": [
            {"time": "00:00:20", "to": "primary: Siddharth Rao", "type": "page"},
            {"time": "00:04:59", "by": "Siddharth Rao", "type": "acknowledge"},
        ],
    }, True),  # 4m39s
    # ---- routing (choice) ---------------------------------------------------------------------------------
    it(TEAM, {
        "alert": "GatewayHigh5xxRate",
        "host": "api-gateway-3",
        "severity": "P2",
        "time": "2024-03-12T03:20:00Z",
        "summary": "5xx rate 7% over 5 minutes on api-gateway-3",
        "labels": {"region": "ap-northeast-1", "service": "edge-gateway"},
        "runbook": "https://runbooks.internal/edge/5xx",
    }, "apac_sre"),
    it(TEAM, {
        "alert": "CheckoutWebErrors",
        "host": "checkout-web-7",
        "severity": "P2",
        "time": "2024-04-02T17:45:00+02:00",
        "summary": "JS bundle failing to load for 12% of sessions; CDN returns 404 for main.8f3a.js",
        "labels": {"region": "eu-central-1", "service": "checkout-web"},
    }, "emea_sre"),  # 15:45 UTC
    it(TEAM, """
        alert=NodeDiskPressure host=k8s-worker-22 severity=P3
        time=2024-05-03T09:30:00-07:00
        cluster=prod-us-west-2 namespace=all
        msg="kubelet reports DiskPressure; 14 pods evicted in the last 10 minutes; image GC failing to free space"
    """, "amer_sre"),  # 16:30 UTC
    it(TEAM, {
        "alert": "ReplicationLagHigh",
        "host": "postgres-orders-02",
        "severity": "P2",
        "time": "2024-05-08T11:00:00Z",
        "summary": "replica 412s behind primary; read traffic to this replica serving stale orders",
        "labels": {"cluster": "orders", "role": "replica"},
    }, "database_oncall"),
    it(TEAM, """
        [P3] ImpossibleTravelLogin — 2024-05-14T10:22:00Z
        Admin account j.whitfield signed in from Dublin, IE at 10:01Z and from Lagos, NG at 10:19Z.
        MFA was satisfied both times via push approval. Host: sso-proxy-1.
        The second session created a new API token with org-admin scope at 10:20Z.
    """, "security_oncall"),
    it(TEAM, {
        "alert": "NightlyBackupCompleted",
        "host": "backup-runner-1",
        "severity": "info",
        "time": "2024-05-15T02:41:00Z",
        "summary": "nightly backup finished in 41m, 2.3 TB, checksum OK, retention pruned 3 old snapshots",
        "labels": {"job": "nightly-full", "target": "s3://backups-prod"},
    }, "no_page"),
    it(TEAM, {
        "alert": "RedisMemoryHigh",
        "host": "redis-session-01",
        "severity": "info",
        "time": "2024-05-15T13:05:00Z",
        "summary": "used_memory at 95% of maxmemory; eviction policy allkeys-lru active; hit rate 97%",
        "labels": {"cluster": "sessions"},
    }, "no_page"),  # rule 2 comes before the database rule
    it(TEAM, """
        Secret scanning alert (severity P2) at 2024-06-03T12:00:00Z
        An AWS access key belonging to the deploy-bot IAM user was found in a public GitHub repository
        (github.com/example-org/demo-scripts, commit 3f9c1e2). The key was last used 4 minutes ago, from an
        IP address that is not one of our CI runners.
    """, "security_oncall"),
    it(TEAM, {
        "alert": "NodeNotReady",
        "host": "k8s-worker-08",
        "severity": "P2",
        "time": "2024-06-20T23:59:30Z",
        "summary": "node NotReady for 5 minutes; 31 pods pending reschedule",
        "labels": {"cluster": "prod-us-east-1", "instance_type": "m6i.4xlarge"},
    }, "amer_sre"),
    it(TEAM, {
        "alert": "QueueBacklogGrowing",
        "host": "rabbit-2",
        "severity": "P3",
        "time": "2024-06-21T08:00:00Z",
        "summary": "invoices queue depth 12,400 and rising for 15 minutes; consumer count dropped from 8 to 3",
        "labels": {"vhost": "billing", "service": "invoice-workers"},
    }, "emea_sre"),  # rabbit- is not a database host prefix
    it(TEAM, """
        alert: CDNOriginErrors | host: edge-origin-4 | severity: P2
        time: 2024-07-09T12:30:00+05:30
        detail: origin returning 503 to the CDN for 9% of requests in ap-south-1; origin CPU at 98%
    """, "apac_sre"),  # 07:00 UTC
    it(TEAM, {
        "alert": "DiskFull",
        "host": "mysql-billing-03",
        "severity": "P1",
        "time": "2024-07-10T19:15:00Z",
        "summary": "/var/lib/mysql 100% full; writes failing with 'No space left on device'",
        "labels": {"cluster": "billing", "role": "primary"},
    }, "database_oncall"),
    it(TEAM, """
        [P2] OutboundTransferAnomaly at 2024-07-11T04:10:00Z
        host postgres-analytics-01 sent 40 GB to an IP address in a hosting provider we don't use, over 25
        minutes, from a session opened with the read-only 'metabase' role.
    """, "security_oncall"),  # possible exfiltration: rule 1 first
    # ---- escalation step (choice) -------------------------------------------------------------------------
    it(ESCALATION, """
        INC-9001 — SEV4 — typo in the footer of the marketing site ("Copyrigth 2024").
        09:12 reported by marketing in #web-requests
        09:20 ticket WEB-2291 created, assigned to the web team
        09:40 fix merged, deploy scheduled with tomorrow's release train
        10:05 marketing confirms there is no rush
    """, "none"),
    it(ESCALATION, {
        "incident": "INC-9004",
        "severity": "SEV3",
        "title": "Slow CSV exports for some workspaces",
        "impact": "exports for workspaces with more than 50,000 rows take 40-60 seconds instead of 5; they still "
                  "complete",
        "timeline": [
            {"time": "13:20", "event": "alert fired: export p95 45s"},
            {"time": "13:28", "event": "support reports two customer complaints"},
            {"time": "13:35", "event": "investigating query plan; missing index suspected"},
        ],
    }, "team_channel"),
    it(ESCALATION, {
        "incident": "INC-9010",
        "severity": "SEV2",
        "title": "Android app login failures (8% of users)",
        "timeline": [
            {"time": "10:00", "event": "primary paged"},
            {"time": "10:06", "event": "primary acknowledged"},
            {"time": "10:14", "event": "cause found: expired OAuth client secret for the Android app"},
            {"time": "10:30", "event": "new secret deployed, fix rolling out"},
        ],
    }, "page_primary"),
    it(ESCALATION, """
        INC-9013 (SEV2) — "Order emails not sending" — about 9% of customers not receiving order confirmations
        10:00 primary on-call paged
        10:08 no acknowledgement yet
        10:14 support reports 40 tickets about missing confirmation emails
        10:20 still no acknowledgement from primary; incident channel has no responders
    """, "page_secondary"),  # 20 minutes without acknowledgement
    it(ESCALATION, {
        "incident": "INC-9015",
        "severity": "SEV2",
        "title": "Webhooks delayed for 6% of merchants",
        "timeline": [
            {"time": "10:00", "event": "primary paged"},
            {"time": "10:03", "event": "alert auto-posted to #payments-alerts"},
            {"time": "10:09", "event": "no acknowledgement yet"},
        ],
        "impact": "merchant webhooks delayed by 5-12 minutes; no deliveries lost",
    }, "page_primary"),  # only 9 minutes so far
    it(ESCALATION, """
        INC-9020 — SEV1 — full outage of the web app in all regions
        14:00 incident declared; primary and incident commander paged
        14:04 both acknowledged; bridge open
        14:25 database failover attempted, failed
        14:40 restoring from replica in second region; no data loss expected, last replicated write 13:59:58
    """, "page_incident_commander"),  # 40 minutes, no data loss
    it(ESCALATION, {
        "incident": "INC-9022",
        "severity": "SEV1",
        "title": "Payments API down",
        "timeline": [
            {"time": "14:00", "event": "incident declared; primary and incident commander paged"},
            {"time": "14:35", "event": "root cause suspected in new TLS config"},
            {"time": "15:10", "event": "still down; rollback failed, trying manual config restore"},
        ],
        "customer_data_loss": "none known",
    }, "notify_executive"),  # 70 minutes
    it(ESCALATION, {
        "incident": "INC-9025",
        "severity": "SEV1",
        "title": "Storage cluster corruption",
        "timeline": [
            {"time": "03:10", "event": "incident declared; primary and incident commander paged"},
            {"time": "03:18", "event": "writes stopped to prevent further corruption"},
            {"time": "03:30", "event": "confirmed: attachments uploaded between 02:00 and 03:05 are lost for "
                                      "about 1,800 customers"},
        ],
    }, "notify_executive"),  # data loss confirmed
    it(ESCALATION, """
        INC-9031 (SEV3): image thumbnails missing for some listings (about 2% of listing pages show a placeholder)
        08:00 noticed by support
        08:20 posted in #media-team
        09:30 workaround: regenerating thumbnails in batches
        11:05 about 70% regenerated, still working through the backlog
    """, "team_channel"),  # long, but duration only escalates SEV1
    it(ESCALATION, {
        "incident": "INC-9034",
        "severity": "SEV2",
        "title": "Search unavailable for 11% of users",
        "timeline": [
            {"time": "10:00", "event": "primary paged"},
            {"time": "10:10", "event": "automatic reminder sent to primary"},
            {"time": "10:17", "event": "primary acknowledged"},
        ],
    }, "page_secondary"),  # not acknowledged within 15 minutes
    it(ESCALATION, {
        "incident": "INC-9038",
        "severity": "SEV4",
        "title": "Staging environment certificate warning",
        "impact": "browsers show a certificate warning on staging.example.dev; production and customers "
                  "unaffected",
        "timeline": [
            {"time": "22:00", "event": "ticket opened by a developer working late"},
            {"time": "02:30", "event": "still open, no impact"},
        ],
    }, "none"),
    it(ESCALATION, """
        INC-9041 — SEV1 — customers see other customers' invoices in the billing portal
        16:00 incident declared, primary + IC paged
        16:18 portal taken offline
        16:30 investigating whether any invoice data was actually viewed — data exposure suspected, not confirmed
    """, "page_incident_commander"),  # 30 minutes; loss not confirmed
    # ---- regulatory notification (choice) -----------------------------------------------------------------
    it(NOTIFY, """
        Security incident SI-301: a debug log on the checkout service captured full card numbers (PAN) and expiry
        dates for 40 customers in Germany over two hours. The log bucket was readable by a third-party monitoring
        vendor. Debug logging has been switched off and the log objects deleted; the vendor confirms their
        indexer ingested the files.
    """, "notify_card_processor"),  # rule 1 comes first even though EU residents are involved
    it(NOTIFY, {
        "id": "SI-305",
        "discovered": "2024-09-12 15:40",
        "summary": "Marketing export of 3,200 newsletter subscribers (names and email addresses) sent to the "
                   "wrong agency, which has confirmed deletion",
        "data_subjects": "customers resident in France",
        "card_data": False,
        "health_data": False,
    }, "notify_supervisory_authority"),
    it(NOTIFY, {
        "id": "SI-309",
        "discovered": "2024-09-18 08:05",
        "summary": "Misconfigured SFTP share exposed lab result PDFs from our Texas clinic partner; access logs "
                   "show downloads from an unknown IP address",
        "data_subjects": "US patients",
        "records": 860,
        "card_data": False,
    }, "notify_hhs"),
    it(NOTIFY, """
        SI-312: a contractor pushed a copy of our internal monorepo (source code only; no customer data or
        credentials in it, confirmed by secret scanning) to a personal public GitHub repository for 3 hours.
        The repository has been taken down and the contractor's access suspended pending review.
    """, "internal_review"),
    it(NOTIFY, {
        "id": "SI-315",
        "discovered": "2024-09-22 03:10",
        "summary": "18,000 failed login attempts against customer accounts from a botnet; all blocked by rate "
                   "limiting and MFA. No account was accessed.",
        "data_exposed": "none",
        "actions": ["blocked 2,300 source IPs", "forced password reset offered to targeted accounts"],
    }, "no_notification"),
    it(NOTIFY, """
        SI-318: a reporting dashboard with appointment notes and diagnoses for 140 patients of our Dublin clinic
        (Ireland) was shared with an 'anyone with the link' setting and opened from two unknown IP addresses.
        Sharing was switched off the same afternoon.
    """, "notify_supervisory_authority"),  # EU residents: rule 2 comes before rule 3
    it(NOTIFY, {
        "id": "SI-321",
        "discovered": "2024-10-01 06:15",
        "summary": "Two-hour outage of the customer portal after a failed database migration; the migration was "
                   "rolled back and no data was accessed or lost.",
        "data_exposed": "none",
    }, "no_notification"),
    it(NOTIFY, """
        SI-324: a support agent's laptop was stolen unlocked from a car in Chicago. It had a spreadsheet with
        220 US patients' names, diagnoses and the card numbers they used for co-payments. Remote wipe was sent
        but the device has not checked in since.
    """, "notify_card_processor"),  # rule 1 before rule 3
    it(NOTIFY, {
        "id": "SI-327",
        "discovered": "2024-10-09 10:30",
        "summary": "The FY2025 revenue forecast spreadsheet (company figures only, no personal data) was shared "
                   "publicly by mistake for one day.",
        "viewers": "14 anonymous views according to the sharing log",
    }, "internal_review"),
    it(NOTIFY, """
        SI-330: a public Tableau dashboard showed patient names and diagnosis codes for 75 patients of a clinic
        in Ohio, USA. No card or payment data included. The dashboard was published by an analyst testing a new
        template and was public for 9 days.
    """, "notify_hhs"),
    it(NOTIFY, {
        "id": "SI-333",
        "discovered": "2024-10-15 14:00",
        "summary": "A bug in the order-tracking page showed other customers' delivery addresses to logged-in "
                   "users for about two hours after a caching change",
        "data_subjects": "UK customers",
        "records": 430,
        "card_data": False,
    }, "notify_supervisory_authority"),
    # ---- alert handling (choice) --------------------------------------------------------------------------
    it(ALERT_HANDLING, {
        "alert": "HighCPU",
        "host": "api-7",
        "service": "public-api",
        "fired_at": "11:42",
        "value": "97% (threshold 90%)",
        "value_at_evaluation": "96%",
        "open_alerts": [{"alert": "HighCPU", "host": "api-3"}],
        "history_last_30m": [],
        "maintenance": [],
    }, "fire"),
    it(ALERT_HANDLING, {
        "alert": "ReplicaLag",
        "host": "orders-db-2",
        "service": "orders-db",
        "fired_at": "01:45",
        "value": "600s (threshold 60s)",
        "value_at_evaluation": "610s",
        "open_alerts": [],
        "history_last_30m": [],
        "maintenance": [{"service": "orders-db", "from": "01:00", "to": "03:00", "change": "CHG-5120 resize"}],
    }, "suppress_maintenance"),
    it(ALERT_HANDLING, """
        New firing: DiskUsageHigh on host log-store-4 (service: logging) at 09:31, value 91% (threshold 85%).
        Currently open alerts: DiskUsageHigh on log-store-4 (opened 09:02, acknowledged by platform on-call),
        MemoryHigh on log-store-1.
        No maintenance announced. Value at evaluation: 91%. No other firings of this alert in the last hour.
    """, "drop_duplicate"),
    it(ALERT_HANDLING, {
        "alert": "DiskUsageHigh",
        "host": "log-store-6",
        "service": "logging",
        "fired_at": "09:35",
        "value": "88% (threshold 85%)",
        "value_at_evaluation": "88%",
        "open_alerts": [{"alert": "DiskUsageHigh", "host": "log-store-4", "opened": "09:02"}],
        "history_last_30m": [],
        "maintenance": [],
    }, "fire"),  # same name, different host
    it(ALERT_HANDLING, """
        Alert: ConnectionPoolExhausted · host checkout-5 · service checkout
        This firing: 10:27 (value 100/100, threshold 95). Value at evaluation: 100/100.
        Earlier firings of this alert on checkout-5: 10:02 (auto-resolved 10:06), 10:11 (auto-resolved 10:14),
        10:19 (auto-resolved 10:23).
        Open alerts: none. Maintenance: none.
    """, "group_flapping"),  # 10:02, 10:11, 10:19, 10:27 within 30 minutes
    it(ALERT_HANDLING, {
        "alert": "ConnectionPoolExhausted",
        "host": "checkout-2",
        "service": "checkout",
        "fired_at": "10:20",
        "value": "100/100 (threshold 95)",
        "value_at_evaluation": "99/100",
        "open_alerts": [],
        "history_last_30m_note": "earlier firings on checkout-2: 09:40 (auto-resolved 09:44), 10:05 "
                                 "(auto-resolved 10:08)",
        "maintenance": [],
    }, "fire"),  # 09:40 is outside 09:50-10:20: only 2 firings in the window
    it(ALERT_HANDLING, {
        "alert": "QueueDepthHigh",
        "host": "worker-11",
        "service": "emails",
        "fired_at": "15:00",
        "value": "8,200 (threshold 5,000)",
        "value_at_evaluation": "3,900",
        "open_alerts": [],
        "history_last_30m": [],
        "maintenance": [],
        "note": "burst from the 15:00 scheduled newsletter send",
    }, "auto_resolve"),
    it(ALERT_HANDLING, """
        Firing: LatencyP99High on host search-3 (service: search) at 02:15, 2.4s vs threshold 1.5s.
        Evaluated at 02:16: 1.1s.
        Maintenance announced: service 'reporting', 02:00–04:00.
        Open alerts: none. No earlier firings in the last hour.
    """, "auto_resolve"),  # maintenance is for another service; metric back within threshold
    it(ALERT_HANDLING, {
        "alert": "ReplicaLag",
        "host": "orders-db-3",
        "service": "orders-db",
        "fired_at": "02:20",
        "value": "900s (threshold 60s)",
        "value_at_evaluation": "905s",
        "open_alerts": [{"alert": "ReplicaLag", "host": "orders-db-3", "opened": "01:50"}],
        "history_last_30m": [],
        "maintenance": [{"service": "orders-db", "from": "01:00", "to": "03:00"}],
    }, "suppress_maintenance"),  # rule 1 before the duplicate rule
    it(ALERT_HANDLING, {
        "alert": "CertificateExpiringSoon",
        "host": "edge-lb-2",
        "service": "edge",
        "fired_at": "08:00",
        "value": "13 days left (threshold 14)",
        "value_at_evaluation": "13 days left",
        "open_alerts": [{"alert": "CertificateExpiringSoon", "host": "edge-lb-2", "opened": "yesterday 08:00"}],
        "history_last_30m": [],
        "maintenance": [],
    }, "drop_duplicate"),
    it(ALERT_HANDLING, """
        PodRestarting on host k8s-worker-14 (service: recommendations), fired 17:58, 6 restarts in 10 min
        (threshold 3). Value at evaluation: 6.
        Previous firings of PodRestarting on k8s-worker-14: 17:31 (auto-resolved 17:35), 17:44 (auto-resolved
        17:49).
        No open alerts; no maintenance.
    """, "group_flapping"),  # 17:31, 17:44, 17:58 within 30 minutes (17:28-17:58)
    # ---- severity level (score) ---------------------------------------------------------------------------
    it(SEV, {
        "incident": "INC-1201",
        "summary": "Login page failed to load for 30% of active customers after a CDN configuration change",
        "started": "08:40",
        "ended": "08:52",
        "customer_data_lost_or_exposed": False,
        "paid_feature_fully_down": False,
        "detection": "real-user monitoring alert at 08:42",
        "resolution": "CDN configuration rolled back",
    }, 2),  # 30% but only 12 minutes: not SEV1; >= 5%: SEV2
    it(SEV, """
        INC-1204: 320 of our 40,000 active customers got "session expired" errors when logging in between 10:05
        and 11:40. Everyone else was fine. Cause: one of four session-store nodes was evicting keys early after
        a memory limit change. No data lost, no paid feature fully down; affected users could log in again on
        the second try.
    """, 1),  # 0.8%
    it(SEV, {
        "incident": "INC-1207",
        "summary": "Files uploaded by 14 customers during a storage migration were lost and cannot be restored",
        "customers_affected_pct": 0.03,
        "duration_minutes": 6,
        "detection": "customer ticket, then confirmed by checksum audit",
        "paid_feature_fully_down": False,
    }, 3),  # data lost
    it(SEV, """
        INC-1210: the internal CI system (build runners) has been down since 09:00; engineers cannot merge or
        deploy. Customer-facing services are unaffected and no customers have reported anything. Cause under
        investigation: the runner autoscaler lost its cloud credentials.
    """, 1),  # internal-only system down
    it(SEV, {
        "incident": "INC-1213",
        "summary": "Synthetic monitor for the EU homepage flapped 3 times from a single probe location; real-user "
                   "monitoring shows no errors; no internal systems affected",
        "customers_affected_pct": 0,
        "probe": "probe-fra-2",
        "conclusion": "probe host had packet loss on its own uplink",
    }, 0),
    it(SEV, """
        INC-1216: Payment page timeouts. 2,600 of 41,000 active customers hit errors during an 8-minute window
        (14:02-14:10). No data lost; checkout worked on retry. Cause: connection pool exhaustion on the payment
        service after a deploy doubled the number of outbound calls per request.
    """, 2),  # 6.3%
    it(SEV, {
        "incident": "INC-1219",
        "summary": "API returned 503 for 40% of active customers",
        "started": "2024-06-18 19:10",
        "ended": "2024-06-18 19:32",
        "customer_data_lost_or_exposed": False,
        "cause": "a bad load balancer health check marked healthy backends as down in two availability zones",
    }, 3),  # 40% for 22 minutes
    it(SEV, """
        INC-1222: PDF export (a Pro-plan paid feature) was completely unavailable for 45 minutes. Only 1.2% of
        active customers tried to use it in that time. No other impact, no data lost. Cause: the PDF renderer's
        container image was deleted from the registry by a clean-up job.
    """, 2),  # paid feature fully down > 30 minutes
    it(SEV, {
        "incident": "INC-1225",
        "summary": "Scheduled reports (paid feature) delivered slowly — about 20 minutes late — for 3% of active "
                   "customers over 2 hours; all reports were eventually delivered",
        "paid_feature_fully_down": False,
        "customer_data_lost_or_exposed": False,
        "cause": "report worker pool halved by an autoscaling misconfiguration",
    }, 1),  # degraded not fully down; under 5%
    it(SEV, """
        INC-1228: a nightly billing job failed on its first attempt at 02:00 and succeeded on the automatic retry
        at 02:15, well before invoices are sent at 06:00. No customer saw anything and all internal systems were
        up. Logged as an incident only because the failure alert fired.
    """, 0),
    it(SEV, {
        "incident": "INC-1231",
        "summary": "Data export for customer A included contact emails belonging to 3 other customers",
        "customers_affected_pct": 0.01,
        "duration_minutes": 4,
        "detection": "customer A reported it to support",
        "cause": "export query missing a tenant filter after a refactor",
    }, 3),  # data exposed
    it(SEV, """
        INC-1234: disk usage on the log cluster reached 85% and a warning fired. The cleanup job brought it back
        to 60% within 20 minutes. Nothing was down, logging kept working throughout, and no customers were
        affected.
    """, 0),
    # ---- log scoring (score) ------------------------------------------------------------------------------
    it(LOG_SCORE, """
        2024-06-03T10:00:01Z web-1 INFO GET /api/orders 200 41ms
        2024-06-03T10:00:02Z web-2 INFO GET /api/orders/9912 200 38ms
        2024-06-03T10:00:02Z canary-web-01 ERROR upstream timeout calling pricing-svc (new build 4.12.0-rc1)
        2024-06-03T10:00:03Z web-1 INFO POST /api/cart 201 77ms
        2024-06-03T10:00:04Z web-3 INFO GET /healthz 200 2ms
        2024-06-03T10:00:05Z canary-web-01 ERROR upstream timeout calling pricing-svc (new build 4.12.0-rc1)
    """, 0),  # only canary lines are above INFO
    it(LOG_SCORE, """
        2024-06-03T11:14:20Z worker-4 INFO job=sync-invoices started batch=3381
        2024-06-03T11:14:21Z worker-4 WARN job=sync-invoices slow response from erp-connector (2.9s)
        2024-06-03T11:14:23Z worker-4 INFO job=sync-invoices batch=3381 processed=500 failed=0
        2024-06-03T11:14:24Z worker-2 INFO job=thumbnails processed=120
        2024-06-03T11:14:30Z worker-4 WARN job=sync-invoices slow response from erp-connector (3.4s)
        2024-06-03T11:14:33Z worker-4 INFO job=sync-invoices batch=3382 processed=500 failed=0
    """, 1),
    it(LOG_SCORE, """
        2024-06-04T02:10:11Z api-2 ERROR payment capture failed order=771201 code=card_declined_processor_error
        2024-06-04T02:10:12Z api-4 ERROR payment capture failed order=771202 code=processor_timeout
        2024-06-04T02:10:12Z api-1 ERROR payment capture failed order=771204 code=processor_timeout
        2024-06-04T02:10:13Z api-2 INFO GET /healthz 200
        2024-06-04T02:10:14Z api-3 ERROR payment capture failed order=771205 code=processor_timeout
        2024-06-04T02:10:15Z api-4 ERROR payment capture failed order=771207 code=processor_timeout
        2024-06-04T02:10:16Z api-1 WARN circuit breaker half-open for processor=adyen
    """, 3),  # 5 ERROR lines
    it(LOG_SCORE, """
        [2024-06-05 08:00:00] [synthetic] probe-eu-1 CRITICAL checkout flow failed at step 'pay' (test card)
        [2024-06-05 08:00:02] app-3 INFO user login ok user_id=55102
        [2024-06-05 08:00:03] app-1 WARN feature flag 'new-pricing' missing, using default
        [2024-06-05 08:00:05] app-2 INFO order placed order_id=88124
        [2024-06-05 08:00:07] [synthetic] probe-eu-1 CRITICAL checkout flow failed at step 'pay' (test card)
    """, 1),  # CRITICAL lines are synthetic; WARN remains
    it(LOG_SCORE, """
        2024-06-06T13:20:01Z search-1 ERROR shard 4 query failed: too_many_clauses
        2024-06-06T13:20:02Z canary-search-01 ERROR shard 4 query failed: too_many_clauses
        2024-06-06T13:20:03Z search-2 ERROR shard 2 query failed: too_many_clauses
        2024-06-06T13:20:05Z search-1 INFO query ok took=12ms
        2024-06-06T13:20:06Z canary-search-01 ERROR shard 2 query failed: too_many_clauses
        2024-06-06T13:20:07Z search-3 ERROR shard 1 query failed: too_many_clauses
        2024-06-06T13:20:09Z search-2 ERROR shard 4 query failed: too_many_clauses
    """, 2),  # 4 ERRORs remain after dropping the 2 canary lines
    it(LOG_SCORE, """
        2024-06-07 04:12:55.120 ledger-writer-1 INFO applying batch 99812 (1,200 entries)
        2024-06-07 04:12:55.431 ledger-writer-1 WARN fsync took 820ms
        2024-06-07 04:12:56.002 ledger-writer-1 FATAL write-ahead log checksum mismatch at offset 0x7A31F0; refusing to start
        2024-06-07 04:12:56.004 ledger-writer-1 INFO shutting down
    """, 3),
    it(LOG_SCORE, """
        2024-06-08T09:30:00Z sync-2 INFO retry succeeded after error: connection reset by peer (attempt 2/5)
        2024-06-08T09:30:01Z sync-2 INFO 0 errors in last batch
        2024-06-08T09:30:03Z sync-1 INFO error budget remaining this month: 71%
        2024-06-08T09:30:04Z sync-3 INFO batch 4410 committed
        2024-06-08T09:30:06Z sync-1 DEBUG error handler registered for topic=invoices
    """, 0),  # the word "error" appears but every level is INFO or DEBUG
    it(LOG_SCORE, """
        2024-06-09T17:45:10Z db-proxy-1 INFO pool size 80/200
        2024-06-09T17:45:20Z db-proxy-1 WARN disk usage on /var/log approaching critical threshold (88%)
        2024-06-09T17:45:30Z db-proxy-1 INFO pool size 82/200
        2024-06-09T17:45:40Z db-proxy-2 WARN CRITICAL_PATH_TIMEOUT setting is deprecated, use critical_path.timeout
        2024-06-09T17:45:50Z db-proxy-2 INFO pool size 77/200
    """, 1),  # "critical" appears only in WARN messages
    it(LOG_SCORE, """
        2024-06-10T06:01:00Z mailer-1 ERROR smtp 451 temporary failure to=a***@example.com
        2024-06-10T06:01:01Z [synthetic] mailer-probe ERROR smtp 451 temporary failure to=probe@example.net
        2024-06-10T06:01:02Z mailer-2 ERROR smtp 451 temporary failure to=j***@example.org
        2024-06-10T06:01:04Z mailer-1 ERROR smtp 451 temporary failure to=m***@example.com
        2024-06-10T06:01:05Z [synthetic] mailer-probe ERROR smtp 451 temporary failure to=probe@example.net
        2024-06-10T06:01:07Z mailer-2 ERROR smtp 451 temporary failure to=s***@example.com
        2024-06-10T06:01:09Z mailer-1 INFO queue depth 212
    """, 2),  # 6 ERRORs, 2 synthetic: 4 remain
    it(LOG_SCORE, """
        2024-06-11T12:00:00Z canary-api-02 CRITICAL panic: nil pointer dereference in handler /v2/refunds
        2024-06-11T12:00:01Z api-5 ERROR refund 55120 rejected by processor: insufficient balance
        2024-06-11T12:00:02Z api-6 INFO POST /v2/refunds 201
        2024-06-11T12:00:03Z api-5 INFO POST /v2/refunds 201
        2024-06-11T12:00:04Z canary-api-02 CRITICAL panic: nil pointer dereference in handler /v2/refunds
    """, 2),  # CRITICAL only on the canary; one ERROR remains
    it(LOG_SCORE, """
        2024-06-12T22:15:40Z storage-7 INFO scrub started on pool tank0
        2024-06-12T22:16:02Z storage-7 WARN read error on disk sdc, retrying
        2024-06-12T22:16:05Z storage-7 CRITICAL pool tank0 DEGRADED: disk sdc faulted, no hot spare available
        2024-06-12T22:16:06Z storage-7 INFO scrub paused
    """, 3),
    it(LOG_SCORE, """
        2024-06-13T08:00:00.001Z auth-1 DEBUG token cache hit ratio=0.97
        2024-06-13T08:00:00.120Z auth-1 DEBUG jwks refreshed keys=3
        2024-06-13T08:00:01.002Z auth-2 DEBUG token cache hit ratio=0.96
        2024-06-13T08:00:02.330Z auth-1 DEBUG session gc removed=41
        2024-06-13T08:00:03.014Z auth-2 INFO issued 118 tokens in the last minute
    """, 0),
    # ---- customer-minutes impact (score) ------------------------------------------------------------------
    it(IMPACT, {
        "incident": "INC-2301",
        "affected_users": 450,
        "impact_start": "2024-07-01T09:00Z",
        "impact_end": "2024-07-01T09:18Z",
        "summary": "Password reset emails not delivered; users who requested a reset saw 'email sent' but "
                   "nothing arrived",
        "cause": "SMTP relay credentials rotated without updating the mailer",
    }, 0),  # 450 x 18 = 8,100
    it(IMPACT, """
        INC-2304 — mobile push notifications delayed
        Affected users: 1,200 (iOS users in North America)
        Impact from 13:10 to 13:45 (UTC), same day. Resolved by scaling the notification workers from 4 to 12.
        No notifications were lost; the backlog drained within 3 minutes of scaling.
    """, 1),  # 1,200 x 35 = 42,000
    it(IMPACT, {
        "incident": "INC-2307",
        "affected_users": 9000,
        "impact_start": "2024-07-03T16:00Z",
        "impact_end": "2024-07-03T16:25Z",
        "summary": "Dashboard charts failing to load for workspaces on the EU-2 shard",
        "cause": "timeseries query service ran out of memory after a large customer import",
    }, 2),  # 9,000 x 25 = 225,000
    it(IMPACT, """
        INC-2310: full login outage. 52,000 users affected. Impact began 07:20 and ended 08:00 UTC. The identity
        provider's signing key was rotated early by an automation job, so every token validation failed until
        the old key was restored.
    """, 3),  # 52,000 x 40 = 2,080,000
    it(IMPACT, {
        "incident": "INC-2313",
        "affected_users": 800,
        "impact_start": "14:05",
        "impact_end": "15:50",
        "summary": "Calendar sync stalled for Outlook users; events created in Outlook did not appear in the app",
        "cause": "Microsoft Graph API throttling after a retry storm",
    }, 1),  # 800 x 105 = 84,000
    it(IMPACT, """
        INC-2316: 3,300 users saw a blank page on the billing screen from 09:58 to 10:01 while a bad CDN config
        was live. The config was rolled back automatically when the canary check failed. No payments were
        affected.
    """, 0),  # 3,300 x 3 = 9,900
    it(IMPACT, {
        "incident": "INC-2319",
        "affected_users": 12000,
        "impact_start": "2024-07-06 23:40",
        "impact_end": "2024-07-07 01:10",
        "summary": "Video playback failing on smart TV apps",
        "cause": "DRM licence server overloaded after a TV app update doubled licence requests; scaled out manually",
    }, 3),  # 12,000 x 90 = 1,080,000
    it(IMPACT, """
        INC-2322 (ongoing) — checkout slow for 2,500 users
        08:12 impact began
        08:30 mitigation attempt 1 (cache flush) — no change
        08:44 long-running migration holding row locks identified
        08:57 latest update: still degraded, deciding whether to kill the migration
    """, 2),  # 2,500 x 45 = 112,500
    it(IMPACT, {
        "incident": "INC-2325",
        "phases": [
            {"from": "11:00", "to": "11:20", "affected_users": 600, "note": "only EU users on the new build"},
            {"from": "11:20", "to": "11:50", "affected_users": 5000, "note": "rollout widened to all EU users"},
        ],
        "summary": "Search filters returning no results",
        "resolution": "build rolled back at 11:50",
    }, 2),  # 600 x 20 + 5,000 x 30 = 162,000
    it(IMPACT, """
        INC-2328: 150 enterprise users could not export audit logs for six hours (impact 06:00 to 12:00). The
        export worker was stuck on a malformed record; other features worked normally. Fixed by skipping the
        record and re-running the queue.
    """, 1),  # 150 x 360 = 54,000
    it(IMPACT, {
        "incident": "INC-2331",
        "affected_users": 20000,
        "impact_start": "2024-07-12T18:10Z",
        "impact_end": "2024-07-12T19:00Z",
        "summary": "Messages failing to send in the web client; mobile apps unaffected",
        "cause": "websocket gateway rejected connections after a TLS library upgrade",
    }, 3),  # 20,000 x 50 = 1,000,000
    it(IMPACT, """
        INC-2334: 99 users of the beta reporting module saw stale numbers from 10:00 to 11:40. The reporting
        cache was not invalidated after the nightly load; numbers were correct again after a manual refresh.
    """, 0),  # 99 x 100 = 9,900
    # ---- SLA credits (score) ------------------------------------------------------------------------------
    it(SLA_CREDIT, {
        "customer": "Halden Retail",
        "month": "June 2024 (30 days)",
        "outages": [
            {"date": "2024-06-03", "minutes": 12, "cause": "load balancer failover"},
            {"date": "2024-06-14", "minutes": 9, "cause": "bad deploy"},
            {"date": "2024-06-27", "minutes": 15, "cause": "DNS provider incident"},
        ],
        "maintenance_windows_used": [],
    }, 0),  # 36 minutes <= 43.2
    it(SLA_CREDIT, """
        Customer: Orbitline Analytics — September 2024 (30 days)
        Downtime log:
          - 6 Sep: 25 minutes (database failover)
          - 19 Sep: 30 minutes (certificate expiry)
        No maintenance windows were used and no customer-caused outages. Account manager asks whether a credit
        is due before the renewal call.
    """, 1),  # 55 minutes: 99.873%
    it(SLA_CREDIT, {
        "customer": "Brightline Health",
        "month": "April 2024 (30 days)",
        "outages": [
            {"date": "2024-04-09", "minutes": 180, "cause": "storage array failure"},
            {"date": "2024-04-22", "minutes": 300, "cause": "region-wide network outage"},
        ],
        "maintenance_windows_used": [],
    }, 2),  # 480 minutes: 98.89%
    it(SLA_CREDIT, """
        Customer: Quillmark — November 2024 (30 days)
        One outage: 12 Nov 00:00 to 14 Nov 00:00 (ransomware recovery, restored from backups). Nothing else
        happened during the month, and no maintenance windows were used.
    """, 3),  # 2,880 minutes: 93.33%
    it(SLA_CREDIT, {
        "customer": "Tidewater Logistics",
        "month": "June 2024 (30 days)",
        "outages": [
            {"date": "2024-06-16", "minutes": 50, "cause": "database upgrade overran",
             "note": "20 of the 50 minutes fell inside the announced maintenance window 02:00-02:20"},
        ],
    }, 0),  # 30 qualifying minutes
    it(SLA_CREDIT, """
        Customer: Fernhill Bank — September 2024 (30 days)
        - 400 minutes total: API outage across 3 days (our side, cache cluster failures)
        - 90 minutes: customer's own firewall rule blocked our IP range (customer misconfiguration, confirmed)
        No maintenance windows were used.
    """, 1),  # 400 qualifying: 99.07%
    it(SLA_CREDIT, {
        "customer": "Northmoor Insurance",
        "month": "April 2024 (30 days)",
        "outages": [{"date": "2024-04-18", "duration": "7 hours 30 minutes", "cause": "primary region outage",
                     "maintenance_window": False}],
        "customer_note": "Claims team could not file claims all afternoon; asking for the SLA credit in writing.",
    }, 2),  # 450 minutes: 98.96%
    it(SLA_CREDIT, """
        Customer: Ashgrove Payments — June 2024 (30 days)
        Incident: 36 hours of downtime, 4 Jun 08:00 to 5 Jun 20:00, after a failed data-centre migration. Nothing
        in a maintenance window; no other outages. The customer's configuration played no part; the migration
        runbook skipped the DNS cut-over step.
    """, 2),  # 2,160 minutes: exactly 95.0%, which is in the 25% band
    it(SLA_CREDIT, {
        "customer": "Loomwise",
        "month": "November 2024 (30 days)",
        "outages": [{"date": "2024-11-07", "minutes": 44, "cause": "bad configuration push",
                     "maintenance_window": False, "customer_caused": False}],
        "request": "Customer success asks whether Loomwise is owed a credit for November.",
    }, 1),  # 44 > 43.2: 99.898%
    it(SLA_CREDIT, """
        Customer: Meridian Data Services — April 2024 (30 days)
        Outages: 3 Apr, 1 day 14 hours (storage corruption, restore from backup). No maintenance involved and
        nothing caused by the customer.
    """, 3),  # 38 hours = 2,280 minutes: 94.72%
    it(SLA_CREDIT, {
        "customer": "Helpline Outsourcing",
        "month": "September 2024 (30 days)",
        "outages": [{"date": "2024-09-25", "minutes": 43, "cause": "queue broker crash",
                     "maintenance_window": False, "customer_caused": False}],
        "request": "Customer's procurement team has asked for the September uptime figure and any credit due.",
    }, 0),  # 43 minutes: 99.9005%
    # ---- data exposure (score) ----------------------------------------------------------------------------
    it(EXPOSURE, """
        SI-401: an S3 bucket with weekly aggregate usage statistics (counts per country and plan; no user-level
        rows) was public for two days. Access logs show 3 downloads from unknown IP addresses. The bucket policy
        was reverted and the files checked: every row is a count per country and plan, with no names, emails or
        account IDs.
    """, 0),
    it(EXPOSURE, {
        "id": "SI-404",
        "summary": "An order confirmation email was sent to the wrong customer; it showed another customer's name, "
                   "delivery address and the items ordered",
        "people": 1,
        "sensitive_fields": [],
        "cause": "race condition in the email queue",
        "detection": "the recipient forwarded the email to support and deleted it",
    }, 1),
    it(EXPOSURE, """
        SI-407: a shared link to the "Spring promo contacts" spreadsheet (2,400 customers: name, email, city) was
        posted in a public community forum and viewed 37 times before removal. The sheet had no payment, health
        or ID fields. The forum moderators removed the post after 3 hours.
    """, 2),
    it(EXPOSURE, {
        "id": "SI-410",
        "summary": "Debug logging wrote full card numbers to a log bucket that an external monitoring vendor "
                   "can read",
        "people": 37,
        "sensitive_fields": ["card_number", "expiry"],
        "duration": "2 hours before debug logging was switched off",
        "vendor": "confirmed its indexer ingested the log files; deletion requested",
    }, 2),  # sensitive, fewer than 100 people
    it(EXPOSURE, """
        SI-413: the newsletter platform's API key leaked and was used to download the subscriber list: 15,000
        email addresses with first names. No other fields are stored on that platform. The key had been pasted
        into a public gist by a marketing contractor; it was revoked 6 hours after the download.
    """, 3),  # 10,000 or more people
    it(EXPOSURE, {
        "id": "SI-416",
        "summary": "Clinic scheduling export with appointment notes (conditions and medications) emailed by "
                   "mistake to an external address: a patient's relative whose name autocompleted instead of the "
                   "clinic manager's",
        "people": 480,
        "sensitive_fields": ["health_information"],
        "status": "recipient says they deleted it without opening the attachment; this cannot be verified",
    }, 3),  # sensitive, 100 or more
    it(EXPOSURE, """
        SI-419: a caching bug showed the wrong first name in the header ("Hi, Sam!") to 12 users for about ten
        minutes. No other fields were shown: no emails, addresses, order history or payment details. The cache
        key was missing the user ID after a refactor; fixed by a hotfix at 14:12.
    """, 1),
    it(EXPOSURE, {
        "id": "SI-422",
        "summary": "Legacy signup service logged plaintext passwords to a log index readable by all contractors",
        "people": 90,
        "sensitive_fields": ["password"],
        "window": "signups between 2024-10-01 and 2024-10-04",
        "action": "affected users forced to reset passwords; log index purged",
    }, 2),  # sensitive, fewer than 100
    it(EXPOSURE, """
        SI-425: a payouts CSV with 110 merchants' owners' names and bank account numbers was attached to a public
        support ticket. The ticket was public on the community help desk for two days before a moderator hid it;
        no card numbers were in the file.
    """, 3),  # sensitive, 100 or more
    it(EXPOSURE, {
        "id": "SI-428",
        "summary": "Public API endpoint returned internal order IDs and warehouse codes for any order number "
                   "guessed; no names, addresses or other customer fields were included",
        "people": 0,
        "detection": "bug bounty report",
        "fix": "endpoint now requires authentication",
    }, 0),
    it(EXPOSURE, """
        SI-431: an intern's script posted 99 customers' names and phone numbers into a partner's shared Slack
        channel. No other fields were in the file. The partner's workspace admin deleted the message within 20
        minutes and confirmed nobody downloaded the attachment.
    """, 1),
]
