"""Access requests: IT/IAM requests judged against a written access policy stated in the question.

Every rule the answer depends on is written into the question; the states carry the dates, times, roles,
classifications and approvals needed to apply it. Comments after an item show the working.
"""

from ._kit import choice, it, noul, score

DOMAIN = "access_requests"
PREFIX = "access"

CLASSES = (
    "System classifications: billing-db, crm-prod and hr-core hold Restricted data; finance-reports, "
    "git-monorepo and analytics-warehouse hold Confidential data; wiki, jira and status-dashboard hold Internal "
    "data."
)

# ---- questions --------------------------------------------------------------------------------------------

APPROVE = noul(
    "Access policy (Northwind Labs):\n"
    "1. Restricted systems need approval from both the requester's line manager and the system's data owner. "
    "Confidential systems need line-manager approval. Internal systems need no approval.\n"
    "2. Access to a Restricted system must end no more than 14 days after it starts; access to a Confidential "
    "system no more than 90 days after it starts. Internal access may be open-ended.\n"
    "3. Contractors (including vendor staff) may not be given access to Restricted systems, and their access to "
    "Confidential systems may last at most 30 days.\n"
    "4. Write or admin access to billing-db, crm-prod or hr-core is allowed only for people in the SRE or DBA "
    "roles.\n"
    "5. An approval counts only if it was given by the named approver; an approval given by the requester "
    "themself never counts.\n"
    f"{CLASSES}\n\n"
    "Can this request be approved as submitted, with every rule met?",
    true="Every rule of the policy is met.",
    false="At least one rule is not met.",
)

BREAK_GLASS = noul(
    "Break-glass rule: an engineer may grant themself emergency production access without waiting for approval "
    "only when ALL of these hold: (a) at the moment the request is made, they are the primary or secondary "
    "on-call for the affected service according to the rota shown; (b) the request references an incident that "
    "is still open and is SEV1 or SEV2; (c) the requested access window is 4 hours or less. All times are UTC.\n\n"
    "Does this request qualify for self-approved break-glass access?"
)

GRANT_VALID = noul(
    "Temporary access grants are valid from their start time up to, but not including, their end time. A grant "
    "that has been revoked stops being valid at the revocation time. Times are UTC unless an offset is shown. "
    "A grant only covers the system it names.\n\n"
    "Was the access attempt shown covered by a valid grant for that system at the moment it happened?"
)

CONTRACTOR_EXT = noul(
    "Contractor extension rule: a contractor's account may be extended only if ALL of these hold:\n"
    "1. the new expiry date is on or before the end date of the contractor's current statement of work (SOW);\n"
    "2. the sponsor is a permanent employee at grade M1 or above (grades from lowest to highest: E1, E2, E3, M1, "
    "M2, D1, VP);\n"
    "3. the time from the account's first activation to the new expiry date is at most 180 days;\n"
    "4. the contractor completed security training within the 365 days before the request date.\n\n"
    "Should this extension be approved?"
)

APPROVERS = choice(
    "Approval matrix for access requests:\n"
    "- Internal systems: read access needs no approval; write or admin access needs the line manager.\n"
    "- Confidential systems: the line manager, for any access level.\n"
    "- Restricted systems: read access needs the line manager and the data owner; write or admin access needs "
    "the line manager, the data owner and Security.\n"
    "- Some requests can never be granted and must be denied: any request by a contractor (or vendor staff) for a "
    "Restricted system, and any request for a Restricted or Confidential system that has no end date.\n"
    f"{CLASSES}\n\n"
    "Which approvals does this request need?",
    {
        "auto_approve": "no approval needed",
        "line_manager": "the line manager only",
        "manager_and_owner": "the line manager and the data owner",
        "manager_owner_security": "the line manager, the data owner and Security",
        "security_only": "the Security team only",
        "deny": "the request cannot be granted under the matrix",
    },
)

FIRST_BREACH = choice(
    "Access request checks, applied in this order:\n"
    "R1 training: the requester's last security training must be dated within the 365 days before the request "
    "date.\n"
    "R2 contractor: contractors may not be given access to Restricted systems.\n"
    "R3 duration: Restricted access may last at most 14 days; Confidential access at most 90 days; Internal "
    "access has no limit.\n"
    "R4 separation of duties: no one may hold both the 'payments-initiate' and 'payments-release' entitlements "
    "(check the requester's current entitlements together with the one requested).\n"
    "R5 approvals: Restricted needs the line manager and the data owner; Confidential needs the line manager; "
    "Internal needs none. Only approvals with status 'approved' count.\n"
    f"{CLASSES} The entitlements payments-initiate and payments-release are in billing-db.\n\n"
    "Which is the first rule, in the order above, that this request breaks? Answer approve if it breaks none.",
    {
        "approve": "breaks none of the rules",
        "r1_training": "R1: training out of date or missing",
        "r2_contractor": "R2: contractor asking for a Restricted system",
        "r3_duration": "R3: longer than allowed",
        "r4_separation": "R4: would hold both payment entitlements",
        "r5_approvals": "R5: a required approval is missing",
    },
)

ROLE = choice(
    "Ledgerly role catalog (from least to most privilege within each family):\n"
    "- crm_viewer: read customer profiles in the CRM (no payment data). Eligible: any employee.\n"
    "- crm_editor: read and edit customer profiles in the CRM. Eligible: Support and Sales.\n"
    "- payments_viewer: view transactions and masked card data. Eligible: Support tier 2 and above, Finance, "
    "Risk.\n"
    "- refunds_standard: everything in payments_viewer, plus issue refunds up to $250 per transaction. Eligible: "
    "Support tier 2 and above, Finance.\n"
    "- refunds_senior: everything in refunds_standard, plus refunds up to $2,000 per transaction. Eligible: "
    "Finance and Support team leads.\n"
    "- payments_admin: change payout settings and merchant bank details. Eligible: Finance managers only.\n"
    "- warehouse_analyst: read-only SQL on the pseudonymised analytics warehouse. Eligible: Data, Finance, Risk.\n"
    "Rule: grant the least-privileged role that covers everything the requester says they need. If the requester "
    "is not eligible for that role, answer none; never grant a bigger role instead. Also answer none if no role "
    "covers the need.\n\n"
    "Which role should be granted?",
    {
        "crm_viewer": None,
        "crm_editor": None,
        "payments_viewer": None,
        "refunds_standard": None,
        "refunds_senior": None,
        "payments_admin": None,
        "warehouse_analyst": None,
        "none": "no role can be granted under the rule",
    },
)

RISK = score(
    "Risk scoring for access requests. Start at 0 and add: +2 if the system is Restricted, or +1 if it is "
    "Confidential (Internal adds nothing); +1 if the access includes write or admin; +1 if the requester is a "
    "contractor; +1 if the requested duration is longer than 7 days or has no end date; +1 if the request was "
    "submitted outside business hours (before 08:00 or at or after 18:00 on a weekday, or at any time on a "
    "Saturday or Sunday).\n"
    f"{CLASSES}\n\n"
    "Which risk tier does the total give?",
    [
        "low: total 0 or 1",
        "moderate: total 2",
        "elevated: total 3 or 4",
        "high: total 5 or 6",
    ],
)

REVOKE_COUNT = score(
    "Quarterly access review, review date 30 June 2024. An entitlement must be revoked if any of these is true: "
    "(a) it was last used before 1 April 2024, or never used; (b) it belongs to a department other than the "
    "user's current department (entitlements marked company-wide belong to every department); (c) it is a "
    "temporary grant whose end date is before 30 June 2024. Count each entitlement once, even if several "
    "reasons apply.\n\n"
    "How many of this user's entitlements must be revoked?",
    ["none", "one", "two", "three or more"],
)

MISSING_APPROVALS = score(
    "Required approvers: the line manager, always; the data owner, if the system is Restricted (billing-db, "
    "crm-prod, hr-core); Security, if the access is write or admin on a production system (production: "
    "billing-db, crm-prod, hr-core, analytics-warehouse; not production: wiki, jira, git-monorepo, staging-db); "
    "the sponsor, if the requester is a contractor. An approval counts only if its status is 'approved', it was "
    "given by the person named for that role, and that person is not the requester. One person can fill only "
    "one role: if the same person approved in two roles, only one of those approvals counts.\n\n"
    "How many required approvals are still missing?",
    [
        "0: every required approval is in place",
        "1 missing",
        "2 missing",
        "3 or more missing",
    ],
)

# ---- items ------------------------------------------------------------------------------------------------

ITEMS = [
    # ---- policy approval (noul) ---------------------------------------------------------------------------
    it(APPROVE, {
        "ticket": "ACC-10412",
        "opened": "2024-03-01 10:12",
        "requester": {"name": "Marta Kowalczyk", "title": "Customer Support Engineer",
                      "employment": "permanent employee", "role": "Support"},
        "system": "crm-prod",
        "access": "read",
        "start": "2024-03-04",
        "end": "2024-03-15",
        "justification": "Investigating duplicate customer records reported in CASE-7781.",
        "approvals": [
            {"role": "line manager", "name": "Dana Okafor", "status": "approved"},
            {"role": "data owner (crm-prod)", "name": "Priya Raman", "status": "approved"},
        ],
    }, True),  # Restricted read, 11 days, both approvals, employee
    it(APPROVE, """
        Ticket ACC-10433 — opened 2024-04-29 by Jonas Lindqvist (Data Scientist, permanent employee)
        System: hr-core        Access: read-only
        Requested period: 2024-05-01 to 2024-05-31
        Reason: attrition model refresh for the People Analytics quarterly report; needs tenure and
        department fields only.
        Approvals:
          [x] Line manager — Grace Mbeki — approved 2024-04-29
          [x] Data owner (hr-core) — Ahmed Farouk — approved 2024-04-30
        Requester comment: happy to use the read-only reporting views if that's easier for the DBAs.
    """, False),  # Restricted for 30 days > 14
    it(APPROVE, {
        "ticket": "ACC-10501",
        "requester": {"name": "Kofi Mensah", "employment": "contractor (Brightwave Consulting)",
                      "role": "Frontend developer"},
        "system": "git-monorepo",
        "access": "read/write",
        "start": "2024-07-08",
        "end": "2024-08-02",
        "justification": "Checkout redesign sprint, PRs into web/checkout only.",
        "approvals": [{"role": "line manager", "name": "Helen Ford", "status": "approved"}],
    }, True),  # Confidential, contractor, 25 days <= 30; rule 4 does not cover git-monorepo
    it(APPROVE, """
        ACC-10522 | analytics-warehouse | read
        Requester: Sunita Pillai — vendor staff, Meridian Data Services (contract analyst)
        From 2024-02-01 until 2024-03-15
        Purpose: build the Q1 churn dashboard for the retention team.
        Approvals: line manager (Oscar Hale) — approved 31 Jan.
    """, False),  # contractor on Confidential for 43 days > 30
    it(APPROVE, {
        "ticket": "ACC-10560",
        "requester": {"name": "Lena Vogel", "employment": "contractor", "role": "Technical writer"},
        "system": "wiki",
        "access": "edit",
        "start": "2024-06-03",
        "end": None,
        "justification": "Writing the new onboarding guides; will need edit rights for the whole engagement.",
        "approvals": [],
    }, True),  # Internal: no approval needed, open-ended allowed, contractor rules only cover Restricted/Confidential
    it(APPROVE, {
        "ticket": "ACC-10577",
        "requester": {"name": "Ibrahim Diallo", "employment": "permanent employee", "role": "Data Analyst"},
        "system": "billing-db",
        "access": "write",
        "start": "2024-06-10",
        "end": "2024-06-17",
        "justification": "Need to correct 42 invoice rows with the wrong VAT code before month end.",
        "approvals": [
            {"role": "line manager", "name": "Clara Jensen", "status": "approved"},
            {"role": "data owner (billing-db)", "name": "Victor Huang", "status": "approved"},
        ],
    }, False),  # write on billing-db but requester is a Data Analyst, not SRE/DBA
    it(APPROVE, """
        Access request ACC-10590
        Requester: Paulina Nowak, Senior DBA (permanent)
        System: hr-core — admin
        Window: Mon 2024-09-02 to Fri 2024-09-06
        Why: index rebuild and minor version upgrade of the hr-core Postgres cluster (CHG-3321).
        Approvals
          - line manager: Rui Tavares — approved
          - data owner (hr-core): Ahmed Farouk — approved
    """, True),  # DBA, Restricted admin 4 days, both approvals
    it(APPROVE, {
        "ticket": "ACC-10602",
        "requester": {"name": "Tom Becker", "employment": "permanent employee", "title": "Engineering Manager",
                      "line_manager": "Sofia Reyes"},
        "system": "finance-reports",
        "access": "read",
        "start": "2024-10-01",
        "end": "2024-10-31",
        "justification": "Headcount budget planning for 2025.",
        "approvals": [
            {"role": "line manager", "name": "Tom Becker", "status": "approved",
             "note": "Sofia is on holiday until the 14th, approving myself so this isn't blocked"},
        ],
    }, False),  # the only approval was given by the requester
    it(APPROVE, """
        #it-access (Slack export)
        [09:14] Ravi Subramanian: Hi team — raising ACC-10618 for read on finance-reports, 1 Oct – 30 Nov 2024,
                for the Q3/Q4 close. I'm a permanent FP&A analyst.
        [09:15] AccessBot: ACC-10618 created. Approver required: line manager (Leila Haddad).
        [10:02] AccessBot: ✅ Leila Haddad approved ACC-10618 as line manager.
        [10:03] Ravi Subramanian: thanks!
    """, True),  # Confidential, 60 days <= 90, manager approved
    it(APPROVE, {
        "ticket": "ACC-10633",
        "requester": {"name": "Chloe Martin", "employment": "permanent employee", "role": "Account Manager"},
        "system": "crm-prod",
        "access": "read",
        "start": "2024-05-06",
        "end": "none (ongoing business-as-usual need)",
        "justification": "Account managers need to see customer contact history every day.",
        "approvals": [
            {"role": "line manager", "name": "Nadia Petrova", "status": "approved"},
            {"role": "data owner (crm-prod)", "name": "Priya Raman", "status": "approved"},
        ],
    }, False),  # Restricted with no end date
    it(APPROVE, """
        Ticket ACC-10641
        Requester: Yusuf Celik (permanent) — Fraud Investigations
        System / access: billing-db, read-only
        Period: 2024-08-12 → 2024-08-22
        Reason: reviewing chargeback pattern for merchant M-20931.
        Approvals: line manager Ingrid Solberg — APPROVED; data owner Victor Huang — PENDING (auto-reminder sent)
    """, False),  # data owner approval still pending
    it(APPROVE, {
        "ticket": "ACC-10655",
        "requester": {"name": "Ana Lucía Torres", "employment": "permanent employee", "role": "Support Team Lead"},
        "system": "crm-prod",
        "access": "read",
        "start": "2024-12-20",
        "end": "2025-01-03",
        "justification": "Covering the holiday escalation queue.",
        "approvals": [
            {"role": "line manager", "name": "Dana Okafor", "status": "approved"},
            {"role": "data owner (crm-prod)", "name": "Priya Raman", "status": "approved"},
        ],
    }, True),  # 20 Dec -> 3 Jan is exactly 14 days: allowed
    it(APPROVE, """
        New request ACC-10668 from the vendor portal
        Name: Gareth Pryce — contractor, Ashgrove Payments Ltd
        System: billing-db   Access: read   Dates: 2024-11-04 to 2024-11-08
        Business reason: reconcile settlement files for the Ashgrove integration go-live.
        Line manager (Mei Tanaka): approved. Data owner (Victor Huang): approved.
    """, False),  # contractor on a Restricted system
    it(APPROVE, {
        "ticket": "ACC-10674",
        "requester": {"name": "Freya Lindgren", "employment": "permanent employee", "role": "SRE"},
        "system": "billing-db",
        "access": "write",
        "start": "2024-02-26",
        "end": "2024-03-08",
        "justification": "Run the partition migration for the invoices table (CHG-2988), with rollback window.",
        "approvals": [
            {"role": "line manager", "name": "Marcus Webb", "status": "approved"},
            {"role": "data owner (billing-db)", "name": "Victor Huang", "status": "approved"},
        ],
    }, True),  # SRE, 11 days (2024 is a leap year), both approvals
    it(APPROVE, """
        ACC-10689 — finance-reports — read — requested by Owen Gallagher (Senior Buyer, permanent employee)
        Start: 15 Jan 2024. End: 15 May 2024.
        Reason: supplier spend analysis for the annual procurement review.
        Line manager Beatriz Santos: approved on 12 Jan.
    """, False),  # Confidential for 121 days > 90
    # ---- break-glass (noul) -------------------------------------------------------------------------------
    it(BREAK_GLASS, {
        "request_id": "BG-2291",
        "requested_at": "2024-04-11T02:14Z",
        "requester": "Aisha Khan",
        "service": "payments-api",
        "incident": {"id": "INC-4471", "severity": "SEV1", "status": "open"},
        "access": "prod-db read/write",
        "window": {"from": "2024-04-11T02:15Z", "to": "2024-04-11T04:15Z"},
        "rota": {"payments-api": [
            {"role": "primary", "name": "Aisha Khan", "from": "2024-04-08T09:00Z", "to": "2024-04-15T09:00Z"},
            {"role": "secondary", "name": "Ben Carter", "from": "2024-04-08T09:00Z", "to": "2024-04-15T09:00Z"},
        ]},
    }, True),
    it(BREAK_GLASS, {
        "request_id": "BG-2305",
        "requested_at": "2024-04-15T10:30Z",
        "requester": "Aisha Khan",
        "service": "payments-api",
        "incident": {"id": "INC-4502", "severity": "SEV2", "status": "open"},
        "access": "prod-db read-only",
        "window": {"from": "2024-04-15T10:30Z", "to": "2024-04-15T12:00Z"},
        "rota": {"payments-api": [
            {"role": "primary", "name": "Aisha Khan", "from": "2024-04-08T09:00Z", "to": "2024-04-15T09:00Z"},
            {"role": "primary", "name": "Luis Ortega", "from": "2024-04-15T09:00Z", "to": "2024-04-22T09:00Z"},
            {"role": "secondary", "name": "Emma Doyle", "from": "2024-04-15T09:00Z", "to": "2024-04-22T09:00Z"},
        ]},
    }, False),  # her shift ended at 09:00, request at 10:30
    it(BREAK_GLASS, """
        Break-glass request BG-2318 — 2024-05-02 16:41 UTC
        Requester: Daniel Kim (primary on-call, search-api, rota 2024-04-29 09:00 → 2024-05-06 09:00)
        Incident: INC-4610 "Autocomplete suggestions slow in EU" — severity SEV3 — open
        Access: kubectl exec on search-api pods, 16:45–17:45 UTC
        Note: want to grab heap dumps before the pods get recycled.
    """, False),  # SEV3 does not qualify
    it(BREAK_GLASS, {
        "request_id": "BG-2330",
        "requested_at": "2024-05-19T21:58Z",
        "requester": "Zanele Dlamini",
        "service": "orders-service",
        "incident": {"id": "INC-4655", "severity": "SEV2", "status": "open"},
        "access": "orders-db admin",
        "window": {"from": "2024-05-19T22:00Z", "to": "2024-05-20T04:00Z"},
        "rota": {"orders-service": [
            {"role": "primary", "name": "Zanele Dlamini", "from": "2024-05-13T09:00Z", "to": "2024-05-20T09:00Z"},
        ]},
        "comment": "Overnight backfill of failed orders, want the whole window so I don't have to re-request.",
    }, False),  # 22:00 -> 04:00 is 6 hours
    it(BREAK_GLASS, """
        BG-2341 | requested 2024-06-14 08:05 UTC | requester: Mateo Rossi
        Service: notifications. Incident INC-4720 (SEV2, open): push notifications delayed up to 40 minutes.
        Access requested: notifications-queue admin, 08:05–11:05 UTC.
        Rota (notifications): primary Hannah Schulz, secondary Mateo Rossi, both 2024-06-10 09:00 → 2024-06-17 09:00 UTC.
    """, True),  # secondary on-call, SEV2 open, 3 hours
    it(BREAK_GLASS, {
        "request_id": "BG-2350",
        "requested_at": "2024-06-21T13:40Z",
        "requester": "Olivia Brown",
        "service": "auth-service",
        "incident": {"id": "INC-4755", "severity": "SEV1", "status": "resolved", "resolved_at": "2024-06-21T13:05Z"},
        "access": "auth-db read-only",
        "window": {"from": "2024-06-21T13:40Z", "to": "2024-06-21T14:40Z"},
        "rota": {"auth-service": [
            {"role": "primary", "name": "Olivia Brown", "from": "2024-06-17T09:00Z", "to": "2024-06-24T09:00Z"},
        ]},
        "comment": "Want to collect data for the postmortem.",
    }, False),  # incident already resolved
    it(BREAK_GLASS, """
        BG-2362 — 2024-07-03T00:52Z
        Requester: Siddharth Rao — primary on-call for ledger-service (rota: 2024-07-01T09:00Z to 2024-07-08T09:00Z)
        Incident INC-4801, SEV1, status OPEN — ledger writes failing for all EU merchants
        Access: ledger-db write, window 01:00Z–05:00Z on 2024-07-03
    """, True),  # window is exactly 4 hours
    it(BREAK_GLASS, {
        "request_id": "BG-2377",
        "requested_at": "2024-07-18T15:22Z",
        "requester": "Grace Liu",
        "service": "billing-service",
        "incident": {"id": "INC-4850", "severity": "SEV1", "status": "open"},
        "access": "billing-db read-only",
        "window": {"from": "2024-07-18T15:25Z", "to": "2024-07-18T16:25Z"},
        "rota": {
            "search-api": [
                {"role": "primary", "name": "Grace Liu", "from": "2024-07-15T09:00Z", "to": "2024-07-22T09:00Z"},
            ],
            "billing-service": [
                {"role": "primary", "name": "Tariq Aziz", "from": "2024-07-15T09:00Z", "to": "2024-07-22T09:00Z"},
                {"role": "secondary", "name": "Ines Duarte", "from": "2024-07-15T09:00Z", "to": "2024-07-22T09:00Z"},
            ],
        },
    }, False),  # on-call for search-api, not for the affected billing-service
    it(BREAK_GLASS, """
        #incident-9120 (all times UTC)
        [Sun 2024-06-09 17:20] Chen Wei: @breakglass grant me checkout-db readonly for 90m please — INC-9120
            (SEV2, open), card payments timing out. I'm primary on-call for checkout this week.
        [Sun 2024-06-09 17:20] breakglass-bot: rota check: checkout primary = Chen Wei,
            Sun 2024-06-02 18:00 → Sun 2024-06-09 18:00.
    """, True),  # 17:20 is before the 18:00 handover; SEV2 open; 90 minutes
    it(BREAK_GLASS, """
        #incident-9377 (times UTC)
        [Mon 2024-07-08 09:25] Noah Bennett: requesting break-glass on checkout-db (read/write) 09:30–11:30,
            INC-9377 is a SEV1 and still open. I've had checkout on-call all week.
        [Mon 2024-07-08 09:25] breakglass-bot: rota for checkout: primary Noah Bennett Mon 2024-07-01 09:00 →
            Mon 2024-07-08 09:00; primary Sara Lindholm Mon 2024-07-08 09:00 → Mon 2024-07-15 09:00.
    """, False),  # his shift ended 25 minutes before the request
    it(BREAK_GLASS, {
        "request_id": "BG-2402",
        "requested_at": "2024-10-16T07:55Z",
        "requester": "Patrick O'Neill",
        "service": "inventory-api",
        "incident": {"id": "INC-5133", "severity": "SEV2", "status": "open"},
        "access": "inventory-db read/write",
        "window": {"from": "2024-10-16T07:55Z", "to": "2024-10-16T09:55Z"},
        "rota": {"inventory-api": [
            {"role": "secondary", "name": "Patrick O'Neill", "from": "2024-10-15T20:00Z", "to": "2024-10-16T08:00Z"},
            {"role": "primary", "name": "Kemi Adebayo", "from": "2024-10-15T20:00Z", "to": "2024-10-16T08:00Z"},
        ]},
    }, True),  # on-call at the moment of the request (07:55 < 08:00); window 2 hours
    it(BREAK_GLASS, """
        Break-glass request BG-2417, 2024-10-24 11:10 UTC
        Requester: Ewa Zielinska, primary on-call for crm-sync (rota 2024-10-21 09:00 → 2024-10-28 09:00 UTC)
        Reference: customer escalation ESC-551 (enterprise customer says contacts are not syncing); no incident
        has been declared yet.
        Access: crm-sync-db read-only, 11:15–12:15 UTC
    """, False),  # no SEV1/SEV2 incident referenced
    it(BREAK_GLASS, {
        "request_id": "BG-2430",
        "requested_at": "2024-11-03T23:50Z",
        "requester": "Jamal Price",
        "service": "media-upload",
        "incident": {"id": "INC-5208", "severity": "SEV1", "status": "open",
                     "title": "Uploads failing with 500 for all users"},
        "access": "object-store admin",
        "window": {"from": "2024-11-03T23:50Z", "to": "2024-11-04T00:20Z"},
        "rota": {"media-upload": [
            {"role": "primary", "name": "Jamal Price", "from": "2024-10-28T09:00Z", "to": "2024-11-04T09:00Z"},
        ]},
    }, True),
    # ---- grant validity (noul) ----------------------------------------------------------------------------
    it(GRANT_VALID, {
        "grant": {"id": "TG-8812", "user": "m.ferreira", "system": "crm-prod", "access": "read",
                  "start": "2024-03-10T08:00:00Z", "end": "2024-03-12T08:00:00Z", "revoked_at": None},
        "access_log": "2024-03-11T23:59:10Z crm-prod user=m.ferreira action=SELECT customers result=ALLOWED",
    }, True),
    it(GRANT_VALID, {
        "grant": {"id": "TG-8830", "user": "j.whitfield", "system": "billing-db", "access": "read",
                  "start": "2024-03-10T08:00:00Z", "end": "2024-03-12T08:00:00Z", "revoked_at": None},
        "access_log": "2024-03-12T08:00:00Z billing-db user=j.whitfield action=SELECT invoices result=ALLOWED",
    }, False),  # the end time itself is not included
    it(GRANT_VALID, """
        Grant TG-9004: user s.okoro, hr-core read, valid 2024-05-01 09:00 UTC to 2024-05-05 09:00 UTC.
        Audit: grant revoked by a.farouk at 2024-05-02 14:30 UTC (reason: project cancelled).
        Access event: 2024-05-02 15:02:41 UTC — hr-core — s.okoro — query employees_salary — ALLOWED (cache)
    """, False),  # revoked 32 minutes before the attempt
    it(GRANT_VALID, """
        Grant TG-9017: user d.nakamura, finance-reports read, valid 2024-05-06 09:00 UTC to 2024-05-10 09:00 UTC.
        Audit: revoked by l.haddad at 2024-05-08 16:00 UTC.
        Access event: 2024-05-08 15:45:12 UTC — finance-reports — d.nakamura — open report 'Q1 EBITDA bridge'
    """, True),  # attempt 15 minutes before the revocation
    it(GRANT_VALID, {
        "grant": {"id": "TG-9120", "user": "k.muller", "system": "analytics-warehouse", "access": "read",
                  "start": "2024-07-01T08:00:00+02:00", "end": "2024-07-01T18:00:00+02:00"},
        "event": {"time": "2024-07-01T15:40:00Z", "system": "analytics-warehouse", "user": "k.muller",
                  "query": "SELECT region, sum(revenue) FROM orders_daily GROUP BY region"},
    }, True),  # grant ends 16:00Z; attempt 15:40Z
    it(GRANT_VALID, {
        "grant": {"id": "TG-9121", "user": "p.schmidt", "system": "analytics-warehouse", "access": "read",
                  "start": "2024-07-01T08:00:00+02:00", "end": "2024-07-01T18:00:00+02:00"},
        "event": {"time": "2024-07-01T16:20:00Z", "system": "analytics-warehouse", "user": "p.schmidt",
                  "query": "SELECT * FROM churn_features LIMIT 500"},
    }, False),  # 16:20Z is 18:20 at +02:00, after the end
    it(GRANT_VALID, """
        [grant] TG-9233 user=r.adeyemi system=git-monorepo access=write start=2024-09-09T09:00Z end=2024-09-13T17:00Z
        [audit] 2024-09-09T08:47:31Z git-monorepo push refs/heads/fix/flaky-tests user=r.adeyemi result=ALLOWED
    """, False),  # attempt before the start
    it(GRANT_VALID, {
        "user": "t.oyelaran",
        "grants": [
            {"id": "TG-9301", "system": "crm-prod", "start": "2024-09-02T08:00Z", "end": "2024-09-06T18:00Z"},
            {"id": "TG-9318", "system": "billing-db", "start": "2024-09-09T08:00Z", "end": "2024-09-20T18:00Z"},
            {"id": "TG-9340", "system": "hr-core", "start": "2024-09-23T08:00Z", "end": "2024-09-27T18:00Z"},
        ],
        "attempt": {"time": "2024-09-16T11:12:05Z", "system": "billing-db", "action": "SELECT refunds"},
    }, True),  # TG-9318 covers billing-db on 16 Sep
    it(GRANT_VALID, {
        "user": "b.lindqvist",
        "grants": [
            {"id": "TG-9402", "system": "finance-reports", "start": "2024-10-01T00:00Z", "end": "2024-10-31T00:00Z"},
            {"id": "TG-9415", "system": "crm-prod", "start": "2024-09-20T08:00Z", "end": "2024-09-27T08:00Z"},
        ],
        "attempt": {"time": "2024-10-14T10:03:44Z", "system": "billing-db", "action": "SELECT invoices"},
    }, False),  # no grant names billing-db
    it(GRANT_VALID, """
        Grant TG-7710 for user h.ibrahim on crm-prod (read): start 2024-02-28 00:00 UTC, end 2024-03-01 00:00 UTC.
        Login recorded on crm-prod for h.ibrahim at 2024-02-29 22:10 UTC.
    """, True),  # 29 Feb 2024 exists and is inside the window
    it(GRANT_VALID, """
        Grant TG-6620: user f.moreau, system hr-core, read, 48 hours starting 2023-02-27 10:00 UTC.
        Access: 2023-03-01 11:30 UTC, hr-core, f.moreau, export headcount_by_team.csv
    """, False),  # 2023 is not a leap year: ends 2023-03-01 10:00
    # ---- contractor extensions (noul) ---------------------------------------------------------------------
    it(CONTRACTOR_EXT, {
        "request": "EXT-3310",
        "request_date": "2024-05-20",
        "contractor": "Imogen Hart (Brightwave Consulting)",
        "first_activation": "2024-01-15",
        "current_expiry": "2024-05-31",
        "new_expiry": "2024-06-30",
        "sow_end": "2024-07-31",
        "sponsor": {"name": "Kenji Watanabe", "employment": "permanent", "grade": "M2"},
        "last_security_training": "2023-11-02",
    }, True),  # 167 days; training 200 days before
    it(CONTRACTOR_EXT, {
        "request": "EXT-3324",
        "request_date": "2024-05-27",
        "contractor": "Liam Doherty (Ashgrove Payments)",
        "first_activation": "2024-03-04",
        "current_expiry": "2024-05-31",
        "new_expiry": "2024-06-30",
        "sow_end": "2024-06-15",
        "sponsor": {"name": "Mei Tanaka", "employment": "permanent", "grade": "M1"},
        "last_security_training": "2024-03-05",
    }, False),  # new expiry after the SOW end
    it(CONTRACTOR_EXT, """
        Extension request EXT-3339 (submitted 2024-06-03)
        Contractor: Aurelio Bianchi — QA engineer via TestWorks
        Account first activated: 2024-04-01; current expiry 2024-06-30; requested new expiry 2024-08-31
        Statement of work ends: 2024-09-30
        Sponsor: Nora Lindahl, Senior Engineer, permanent, grade E3
        Security training completed: 2024-03-28
    """, False),  # sponsor grade E3 is below M1
    it(CONTRACTOR_EXT, {
        "request": "EXT-3350",
        "request_date": "2024-03-25",
        "contractor": "Hamza Qureshi (Meridian Data Services)",
        "first_activation": "2023-10-01",
        "current_expiry": "2024-03-31",
        "new_expiry": "2024-04-30",
        "note": "SOW was renewed in February; one more month needed to finish the data migration.",
        "sow_end": "2024-12-31",
        "sponsor": {"name": "Oscar Hale", "employment": "permanent", "grade": "D1"},
        "last_security_training": "2024-01-22",
    }, False),  # 1 Oct 2023 -> 30 Apr 2024 is 212 days
    it(CONTRACTOR_EXT, """
        EXT-3362 — requested 14 May 2024
        Contractor: Ruth Abebe (UX researcher, Fieldnote Studio)
        First activation 2024-02-05, expiry now 2024-05-31, asking for 2024-07-15.
        SOW end date: 2024-08-30.
        Sponsor: Dev Malhotra, Design Director (permanent, grade D1).
        Security training: last completed 30 April 2023.
    """, False),  # training 380 days before the request
    it(CONTRACTOR_EXT, {
        "request": "EXT-3377",
        "request_date": "2024-08-01",
        "contractor": "Stefan Ivanov (Northbeam IT)",
        "first_activation": "2024-03-01",
        "current_expiry": "2024-08-15",
        "new_expiry": "2024-08-27",
        "sow_end": "2024-09-30",
        "sponsor": {"name": "Julia Sommer", "employment": "permanent", "grade": "D1"},
        "last_security_training": "2024-02-20",
    }, True),  # 179 days; training 163 days before
    it(CONTRACTOR_EXT, """
        EXT-3381 | requested 2024-08-05
        Contractor: Camille Laurent — data engineer, via Meridian Data Services
        First activated 2024-06-03 · new expiry wanted 2024-10-31 · SOW ends 2024-12-31
        Sponsor: Olu Adeyemi, interim Head of Data Platform (agency contractor, acting grade M1)
        Last security training: 2024-06-04
    """, False),  # sponsor is not a permanent employee
    it(CONTRACTOR_EXT, {
        "request": "EXT-3395",
        "request_date": "2024-11-18",
        "contractor": "Beatrix Kovacs (Loomwise Ltd)",
        "first_activation": "2024-08-01",
        "current_expiry": "2024-11-30",
        "new_expiry": "2024-12-31",
        "sow_end": "2024-12-31",
        "sponsor": {"name": "Arjun Mehta", "employment": "permanent", "grade": "M1"},
        "last_security_training": "2024-07-29",
    }, True),  # new expiry equals the SOW end (allowed); 152 days
    it(CONTRACTOR_EXT, """
        #contractor-admin
        Priyanka (HR ops), 2024-07-22: Can we extend Tobias Engel's account (contractor, Northbeam IT)? He was
        first activated on 1 April 2024 and currently expires 31 July. His SOW now runs to 31 October. Please set
        the new expiry to 2024-08-31 so he can finish the payroll cut-over.
        Sponsor is Grace Mbeki (permanent, M1). His security training was done on 28 March this year.
    """, True),  # 1 Apr -> 31 Aug 2024 = 152 days; training 116 days before; all hold
    it(CONTRACTOR_EXT, {
        "request": "EXT-3410",
        "request_date": "2024-07-10",
        "contractor": "Sergio Ramos Gil (TestWorks)",
        "first_activation": "2024-02-01",
        "current_expiry": "2024-07-15",
        "new_expiry": "2024-07-31",
        "sow_end": "2024-08-31",
        "sponsor": {"name": "Helen Ford", "employment": "permanent", "grade": "M2"},
        "last_security_training": "2024-01-30",
    }, False),  # 1 Feb -> 31 Jul 2024 = 181 days > 180
    it(CONTRACTOR_EXT, """
        Extension EXT-3428, filed 2 Sep 2024
        Contractor: Rania Haddad (security consultant, Ironfield Advisory)
        First activation: 6 May 2024. Requested new expiry: 30 Sep 2024. SOW end: 31 Mar 2025.
        Sponsor: Michael Osei, VP Security (permanent).
        Security training: 15 Sep 2023.
    """, True),  # 147 days; training 353 days before the request
    # ---- approvals needed (choice) ------------------------------------------------------------------------
    it(APPROVERS, {
        "ticket": "ACC-20011",
        "created": "2024-09-02 11:20",
        "channel": "self-service portal",
        "requester": {"name": "Holly Price", "employment": "permanent", "team": "Marketing",
                      "title": "Product Marketing Manager"},
        "system": "jira",
        "access": "read",
        "start": "2024-09-02",
        "end": "2024-12-31",
        "reason": "I need to follow the web team's sprint board so launch messaging lines up with what actually "
                  "ships. Read-only is fine; I won't be creating or editing tickets.",
    }, "auto_approve"),
    it(APPROVERS, """
        Request ACC-20019 — submitted via the vendor portal on 2024-09-04
        Requester: Pieter de Vries, contractor (vendor: Loomwise Ltd), partner integrations
        System: wiki — read — no end date requested ("for as long as the engagement runs")
        Reason: needs to read the API style guide and the webhook reference pages while building the partner
        integration. Sponsor on our side is Julia Sommer.
    """, "auto_approve"),  # Internal read; the no-end-date denial only applies to Restricted/Confidential
    it(APPROVERS, {
        "ticket": "ACC-20027",
        "created": "2024-07-15 09:05",
        "requester": {"name": "Lena Vogel", "employment": "contractor", "team": "Docs",
                      "vendor": "Fieldnote Studio"},
        "system": "wiki",
        "access": "write",
        "start": "2024-07-15",
        "end": "2024-09-30",
        "reason": "Publish the migrated help-centre pages and fix broken internal links found by the crawler. "
                  "Currently I can only comment, not edit.",
    }, "line_manager"),  # Internal write
    it(APPROVERS, """
        ACC-20031 — raised by Samuel Adjei (permanent employee, FP&A) on 28 May 2024
        Wants: READ on finance-reports from 1 to 30 June 2024.
        Why: preparing the half-year forecast pack; needs the monthly P&L by cost centre and the headcount cost
        report. Will not export anything outside the finance shared drive.
    """, "line_manager"),
    it(APPROVERS, {
        "ticket": "ACC-20040",
        "created": "2024-08-01 16:42",
        "requester": {"name": "Marco Bellini", "employment": "permanent", "team": "Developer Productivity",
                      "title": "Staff Engineer"},
        "system": "git-monorepo",
        "access": "admin",
        "start": "2024-08-05",
        "end": "2024-08-19",
        "reason": "Reconfigure branch protection rules and CODEOWNERS enforcement after the repo split; needs "
                  "org-level admin on the repository settings for two weeks.",
    }, "line_manager"),  # Confidential: line manager for any access level
    it(APPROVERS, {
        "ticket": "ACC-20052",
        "created": "2024-04-05 10:10",
        "requester": {"name": "Aylin Demir", "employment": "permanent", "team": "Customer Success",
                      "title": "Customer Success Manager"},
        "system": "crm-prod",
        "access": "read",
        "start": "2024-04-08",
        "end": "2024-04-15",
        "reason": "Renewal preparation for three enterprise accounts (Halvorsen Group, Petra Foods, Kestrel "
                  "Air); need their contact history and open cases.",
    }, "manager_and_owner"),
    it(APPROVERS, """
        Ticket ACC-20058 (opened 31 May 2024)
        From: Fatou Ndiaye, HR Analyst, permanent employee
        Need: read-only access to hr-core for 5 days (3–7 June) to check probation end dates for the spring
        joiners and build the reminder list for line managers. I don't need salary fields if those can be hidden.
    """, "manager_and_owner"),
    it(APPROVERS, {
        "ticket": "ACC-20063",
        "created": "2024-06-10 17:30",
        "requester": {"name": "Freya Lindgren", "employment": "permanent", "team": "SRE",
                      "title": "Site Reliability Engineer"},
        "system": "billing-db",
        "access": "read",
        "start": "2024-06-11",
        "end": "2024-06-13",
        "reason": "Check slow-query logs and query plans after yesterday's index change on invoices; no writes "
                  "needed, read replica is fine.",
    }, "manager_and_owner"),  # Restricted read, even for an SRE
    it(APPROVERS, {
        "ticket": "ACC-20071",
        "created": "2024-06-14 12:00",
        "requester": {"name": "Paulina Nowak", "employment": "permanent", "team": "DBA", "title": "Senior DBA"},
        "system": "billing-db",
        "access": "write",
        "start": "2024-06-18",
        "end": "2024-06-19",
        "reason": "Apply the invoice_status enum migration during the Tuesday night maintenance window "
                  "(CHG-4502); rollback script reviewed by two engineers.",
    }, "manager_owner_security"),
    it(APPROVERS, """
        ACC-20079 — crm-prod — ADMIN
        Requester: Hugo Lambert (CRM platform engineer, permanent employee)
        Dates: 2024-07-22 to 2024-07-26
        Reason: rotate the integration user's API keys, update field-level security profiles for the new
        Partner Success team, and remove two stale connected apps flagged in the last audit.
    """, "manager_owner_security"),
    it(APPROVERS, {
        "ticket": "ACC-20084",
        "created": "2024-09-26 08:45",
        "requester": {"name": "Wen Zhao", "employment": "permanent", "team": "HRIS", "title": "HRIS Engineer"},
        "system": "hr-core",
        "access": "read/write",
        "start": "2024-10-01",
        "end": "2024-10-04",
        "reason": "Load the annual salary review results from the signed-off spreadsheet and verify the "
                  "effective dates before payroll cut-off.",
    }, "manager_owner_security"),  # includes write on Restricted
    it(APPROVERS, {
        "ticket": "ACC-20090",
        "created": "2024-10-30 14:15",
        "requester": {"name": "Gareth Pryce", "employment": "contractor", "vendor": "Ashgrove Payments Ltd",
                      "title": "Integration Consultant"},
        "system": "billing-db",
        "access": "read",
        "start": "2024-11-04",
        "end": "2024-11-06",
        "reason": "Reconcile settlement files against our invoice records for the Ashgrove go-live. Our finance "
                  "lead has said she is happy to approve.",
    }, "deny"),  # contractor on a Restricted system
    it(APPROVERS, """
        ACC-20097 (2024-10-01)
        Requester: Elif Arslan, permanent employee, Growth Analytics
        System: analytics-warehouse (read)
        Duration: permanent — "I use it every single day for the growth dashboards, please don't make me
        re-request every quarter. My manager Oscar already said yes on Slack."
    """, "deny"),  # Confidential with no end date
    it(APPROVERS, {
        "ticket": "ACC-20103",
        "created": "2024-08-28 09:00",
        "requester": {"name": "Rob Janssen", "employment": "vendor staff", "vendor": "Helpline Outsourcing BV",
                      "team": "Tier 1 support (outsourced)"},
        "system": "crm-prod",
        "access": "read",
        "start": "2024-09-02",
        "end": "2024-09-09",
        "reason": "Outsourced agents need to look up customer accounts during the one-week pilot of the "
                  "overflow support queue.",
    }, "deny"),  # vendor staff count as contractors
    it(APPROVERS, """
        Hi IT, please give me read on crm-prod starting Monday 12 Aug until further notice — I've moved into the
        Key Accounts team and I'll be handling six of our biggest customers from now on. My new manager is Hana
        Sato. Thanks, Bogdan Popescu (permanent employee) — ticket ACC-20110
    """, "deny"),  # Restricted with no end date
    it(APPROVERS, {
        "ticket": "ACC-20116",
        "created": "2024-05-10 15:25",
        "requester": {"name": "Nina Kraus", "employment": "permanent", "team": "Support", "title": "Support Lead"},
        "system": "status-dashboard",
        "access": "write",
        "start": "2024-05-13",
        "end": "2024-11-13",
        "reason": "Support leads now post the customer-facing incident updates during business hours, so I need "
                  "to create and edit incident notices.",
    }, "line_manager"),  # Internal write
    it(APPROVERS, """
        Ticket ACC-20124: contractor Idris Bello (Northbeam IT) — status-dashboard, read-only, 1 July to 30 Sept
        2024. He is coordinating the data-centre move and wants to watch service health while racks are
        migrated, so he can pause the move if anything goes red.
    """, "auto_approve"),  # Internal read
    # ---- first rule broken (choice) -----------------------------------------------------------------------
    it(FIRST_BREACH, {
        "ticket": "ACC-30101",
        "request_date": "2024-06-03",
        "requester": {"name": "Aylin Demir", "employment": "permanent", "team": "Customer Success",
                      "last_security_training": "2024-01-10", "current_entitlements": ["jira", "wiki"]},
        "system": "crm-prod",
        "access": "read",
        "duration_days": 7,
        "approvals": {"line_manager": "approved", "data_owner": "approved"},
        "reason": "QBR preparation for the Petra Foods account.",
    }, "approve"),
    it(FIRST_BREACH, {
        "ticket": "ACC-30108",
        "request_date": "2024-05-14",
        "requester": {"name": "Jorge Medina", "employment": "contractor", "vendor": "Ironfield Advisory",
                      "last_security_training": "2023-04-30", "current_entitlements": ["wiki"]},
        "system": "hr-core",
        "access": "read",
        "duration_days": 5,
        "approvals": {"line_manager": "approved", "data_owner": "approved"},
        "reason": "Validate the SSO group mapping against the employee directory.",
    }, "r1_training"),  # breaks R1 and R2; R1 comes first
    it(FIRST_BREACH, """
        Request date: 2024-07-02
        Requester: Gareth Pryce — contractor (Ashgrove Payments). Security training: 2024-02-19.
        Current entitlements: jira
        Asking for: billing-db, read, 3 days
        Reason: "reconcile the June settlement files before the integration sign-off meeting"
        Approvals: line manager — approved; data owner — not yet requested
    """, "r2_contractor"),  # breaks R2 and R5; R2 first
    it(FIRST_BREACH, {
        "ticket": "ACC-30122",
        "request_date": "2024-08-19",
        "requester": {"name": "Fatou Ndiaye", "employment": "permanent", "team": "People Analytics",
                      "last_security_training": "2024-03-12", "current_entitlements": ["wiki", "jira"]},
        "system": "hr-core",
        "access": "read",
        "duration_days": 21,
        "approvals": {"line_manager": "approved", "data_owner": "approved"},
        "reason": "Three-week engagement survey analysis that joins survey results to team structure.",
    }, "r3_duration"),
    it(FIRST_BREACH, """
        ACC-30144 (request date 2024-04-22)
        Requester: Diego Fernández, Treasury Operations, permanent. Training completed 2023-12-01.
        Current entitlements: payments-initiate, finance-reports, wiki
        Requested: payments-release (billing-db), 5 days
        Reason: covering for a colleague on leave who normally releases the supplier payment runs.
        Approvals: line manager approved; data owner approved
    """, "r4_separation"),
    it(FIRST_BREACH, {
        "ticket": "ACC-30150",
        "request_date": "2024-09-09",
        "requester": {"name": "Samuel Adjei", "employment": "permanent", "team": "FP&A",
                      "last_security_training": "2024-02-02", "current_entitlements": ["jira"]},
        "system": "finance-reports",
        "access": "read",
        "duration_days": 30,
        "approvals": {"line_manager": "pending"},
        "reason": "Q3 forecast refresh; needs the cost-centre P&L reports.",
    }, "r5_approvals"),
    it(FIRST_BREACH, {
        "ticket": "ACC-30157",
        "request_date": "2024-03-18",
        "requester": {"name": "Kofi Mensah", "employment": "contractor", "vendor": "Brightwave Consulting",
                      "last_security_training": "2024-01-08", "current_entitlements": ["wiki", "jira"]},
        "system": "git-monorepo",
        "access": "write",
        "duration_days": 60,
        "approvals": {"line_manager": "approved"},
        "reason": "Two sprints of checkout front-end work.",
    }, "approve"),  # contractors are only barred from Restricted; 60 <= 90
    it(FIRST_BREACH, """
        Request date 2024-10-07 · requester Elif Arslan (permanent, Growth Analytics) · training 2024-05-30
        Current entitlements: jira, wiki
        Wants: analytics-warehouse read for 100 days, to cover the full Q4 planning cycle and January review
        Approvals: none yet (line manager on leave until next week)
    """, "r3_duration"),  # R3 (100 > 90) before R5
    it(FIRST_BREACH, {
        "ticket": "ACC-30170",
        "request_date": "2024-02-12",
        "requester": {"name": "Ulla Berg", "employment": "permanent", "team": "Design",
                      "last_security_training": None,
                      "note": "joined 2024-02-05, induction training booked for 2024-02-26",
                      "current_entitlements": []},
        "system": "jira",
        "access": "read",
        "duration_days": 180,
        "approvals": {},
        "reason": "New designer; needs to see the design backlog.",
    }, "r1_training"),  # no training on record
    it(FIRST_BREACH, """
        2024-11-11 — request from contractor Pieter de Vries (Loomwise). Security training: 2024-09-03.
        Current entitlements: none.
        System: wiki, write, no end date. Approvals: none.
        Reason: he maintains the partner integration pages and needs to update them after each release.
    """, "approve"),  # Internal: no duration limit, no approval needed
    it(FIRST_BREACH, {
        "ticket": "ACC-30184",
        "request_date": "2024-06-24",
        "requester": {"name": "Hana Sato", "employment": "permanent", "team": "Treasury",
                      "last_security_training": "2024-04-15",
                      "current_entitlements": ["payments-release", "finance-reports"]},
        "system": "billing-db",
        "entitlement": "payments-initiate",
        "duration_days": 14,
        "approvals": {"line_manager": "approved", "data_owner": "approved"},
        "reason": "Quarter-end: wants to set up and release the large supplier payments herself to save time.",
    }, "r4_separation"),
    it(FIRST_BREACH, """
        Request date: 2024-05-27
        Requester: Chloe Martin (permanent, Account Management), training 2023-11-20
        Current entitlements: crm-prod (expired), jira
        New request: crm-prod read, 5 days, to prepare renewal quotes for two accounts
        Approvals: data owner Priya Raman — approved; line manager Nadia Petrova — pending
    """, "r5_approvals"),
    it(FIRST_BREACH, {
        "ticket": "ACC-30198",
        "request_date": "2024-08-26",
        "requester": {"name": "Rob Janssen", "employment": "contractor", "vendor": "Helpline Outsourcing BV",
                      "last_security_training": "2024-08-20", "current_entitlements": ["wiki"]},
        "system": "crm-prod",
        "access": "read",
        "duration_days": 30,
        "approvals": {"line_manager": "approved", "data_owner": "approved"},
        "reason": "Overflow support pilot for September.",
    }, "r2_contractor"),  # breaks R2 and R3; R2 first
    it(FIRST_BREACH, """
        ACC-30201 — request date 2024-09-30
        Requester: Victor Lindqvist, Billing Engineer, permanent; last training 2024-06-17
        Current entitlements: git-monorepo, jira
        Requested: billing-db read, end date: none ("ongoing support of the invoicing service")
        Approvals: line manager — approved; data owner — approved
    """, "r3_duration"),  # Restricted access with no end date is longer than 14 days
    it(FIRST_BREACH, {
        "ticket": "ACC-30209",
        "request_date": "2024-06-02",
        "requester": {"name": "Teodora Ilic", "employment": "permanent", "team": "Procurement",
                      "last_security_training": "2023-06-01", "current_entitlements": ["wiki"]},
        "system": "finance-reports",
        "access": "read",
        "duration_days": 10,
        "approvals": {"line_manager": "approved"},
        "reason": "Supplier spend review for the annual category plan.",
    }, "r1_training"),  # 2023-06-01 -> 2024-06-02 is 367 days
    it(FIRST_BREACH, {
        "ticket": "ACC-30215",
        "request_date": "2024-07-15",
        "requester": {"name": "Wen Zhao", "employment": "permanent", "team": "HRIS",
                      "last_security_training": "2024-01-31", "current_entitlements": ["jira"]},
        "system": "hr-core",
        "access": "read",
        "duration_days": 4,
        "approvals": {"line_manager": "approved", "data_owner": "no response"},
        "reason": "Check the new-starter feed after the HR system upgrade.",
    }, "r5_approvals"),
    it(FIRST_BREACH, """
        Request date 2024-10-21. Requester: Freya Lindgren, SRE, permanent; training 2024-09-12.
        Current entitlements: payments-initiate (held for the payment-run tooling), git-monorepo
        Requested: billing-db read, 10 days, to investigate lock contention on the invoices table
        Approvals: line manager approved; data owner approved
    """, "approve"),  # plain read is not payments-release; 10 <= 14
    # ---- role catalog (choice) ----------------------------------------------------------------------------
    it(ROLE, """
        Hi, I'm an account executive in Sales (EMEA mid-market). Before renewal calls I need to look up the
        customer's profile and contact history in the CRM so I know who I'm talking to and what they've raised
        with support. I don't need to change anything — I log my call notes in our sales tool, not the CRM.
    """, "crm_viewer"),
    it(ROLE, {
        "requester": "Mila Horvat",
        "team": "Support",
        "level": "tier 1",
        "ticket": "ACC-60012",
        "need": "Update customers' email addresses and phone numbers in their CRM profile when they call in "
                "and pass identity verification. Right now I have to hand these to my lead.",
    }, "crm_editor"),
    it(ROLE, {
        "requester": "Jake Sutton",
        "team": "Support",
        "level": "tier 1",
        "ticket": "ACC-60019",
        "need": "See a customer's recent transactions so I can tell them whether a payment went through, "
                "instead of transferring every 'did my payment work?' call to tier 2.",
    }, "none"),  # payments_viewer needs tier 2 or above
    it(ROLE, """
        Ticket from Ama Owusu (Support, tier 2): customers regularly ask for refunds on duplicate charges,
        usually between $20 and $180. I'd like to be able to look up the transactions and issue those refunds
        myself instead of escalating to Finance and making the customer wait two days.
    """, "refunds_standard"),
    it(ROLE, {
        "requester": "Lucas Pereira",
        "team": "Support",
        "level": "tier 2 agent",
        "ticket": "ACC-60033",
        "need": "Issue refunds for annual plans cancelled in the first 14 days; those refunds are up to $1,200 "
                "each.",
    }, "none"),  # needs refunds_senior; tier 2 agents are not eligible
    it(ROLE, """
        From: Zoe Campbell, Support Team Lead
        My team escalates refunds for enterprise annual plans to me; the biggest ones are about $1,500. I need
        to be able to approve and issue those directly rather than waiting for Finance each time.
    """, "refunds_senior"),
    it(ROLE, {
        "requester": "Henrik Dahl",
        "team": "Finance",
        "title": "Finance Manager, Merchant Payouts",
        "ticket": "ACC-60047",
        "need": "Update merchant bank details when merchants send signed change forms, after the call-back "
                "verification has been done.",
    }, "payments_admin"),
    it(ROLE, {
        "requester": "Priti Shah",
        "team": "Finance",
        "title": "Finance Analyst",
        "ticket": "ACC-60052",
        "need": "Change a merchant's payout schedule from weekly to daily when their account manager asks, "
                "usually two or three merchants a week.",
    }, "none"),  # payments_admin is Finance managers only
    it(ROLE, """
        Access request — Risk team
        Name: Bastien Morel, Fraud Risk Analyst
        What I need: look up transactions and see the masked card number and BIN so I can link accounts that
        belong to the same fraud ring. No refunds, no changes to anything.
    """, "payments_viewer"),
    it(ROLE, {
        "requester": "Yara Nasser",
        "team": "Data",
        "title": "Data Scientist",
        "ticket": "ACC-60068",
        "need": "Run SQL over the pseudonymised order and session tables for the pricing experiment analysis; "
                "no access to raw customer identities needed.",
    }, "warehouse_analyst"),
    it(ROLE, {
        "requester": "Connor Walsh",
        "team": "Marketing",
        "title": "Campaign Analyst",
        "ticket": "ACC-60071",
        "need": "Query the analytics warehouse to measure campaign conversion by signup cohort for the "
                "autumn campaign report.",
    }, "none"),  # warehouse_analyst is Data, Finance, Risk only
    it(ROLE, """
        Finance analyst here (Accounts Receivable). Small goodwill refunds land on my desk — typically $25 to $90
        — and I'd like to issue them myself rather than routing every one to a manager. — Olga Petrenko
    """, "refunds_standard"),
    it(ROLE, {
        "requester": "Tomasz Zielinski",
        "team": "Engineering",
        "title": "Backend Engineer",
        "ticket": "ACC-60085",
        "need": "Read a customer's CRM profile to reproduce a bug in the address-sync job; the customer has "
                "given permission in ticket CASE-9120.",
    }, "crm_viewer"),
    it(ROLE, {
        "requester": "Grace Liu",
        "team": "Finance",
        "title": "Finance Manager",
        "ticket": "ACC-60090",
        "need": "View transactions to check that daily settlements match the bank statement. Read-only; I "
                "don't issue refunds or change payout settings.",
    }, "payments_viewer"),  # least privilege, even though she is eligible for bigger roles
    it(ROLE, """
        Hi — Data team (analytics engineering). For the fraud-model features I need to look at transactions
        with the masked card data in the payments console itself, not the warehouse, because the warehouse
        doesn't have the BIN field yet. — Ivo Kralj
    """, "none"),  # payments_viewer is Support tier 2+, Finance, Risk
    it(ROLE, {
        "requester": "Rachel Green",
        "team": "Sales",
        "title": "Account Executive",
        "ticket": "ACC-60104",
        "need": "Fix wrong job titles and phone numbers on customer profiles after discovery calls so the "
                "renewal team has the right contacts.",
    }, "crm_editor"),
    # ---- risk tier (score) --------------------------------------------------------------------------------
    it(RISK, {
        "ticket": "ACC-40101",
        "submitted": "Tuesday 2024-05-21 10:05",
        "requester": {"name": "Holly Price", "employment": "permanent", "team": "Marketing"},
        "system": "wiki",
        "access": "read",
        "duration": "3 days",
        "reason": "Read the brand guidelines space while it is being restructured.",
    }, 0),  # 0
    it(RISK, {
        "ticket": "ACC-40102",
        "submitted": "Wednesday 2024-05-22 14:20",
        "requester": {"name": "Idris Bello", "employment": "contractor", "vendor": "Northbeam IT"},
        "system": "jira",
        "access": "read",
        "duration": "no end date",
        "reason": "Follow the data-centre move epic and its subtasks.",
    }, 1),  # contractor 1 + no end date 1 = 2
    it(RISK, """
        Ticket ACC-40103, submitted Monday 2024-05-20 at 09:30 by Aylin Demir (permanent, Customer Success)
        System: crm-prod · access: read · duration: 5 days
        Reason: renewal preparation for Kestrel Air; needs contact history and open cases.
    """, 1),  # Restricted 2
    it(RISK, {
        "ticket": "ACC-40104",
        "submitted": "Saturday 2024-05-18 11:00",
        "requester": {"name": "Paulina Nowak", "employment": "permanent", "role": "DBA"},
        "system": "billing-db",
        "access": "write",
        "duration": "3 days",
        "reason": "Prepare the Monday night schema migration.",
    }, 2),  # 2 + 1 + weekend 1 = 4
    it(RISK, """
        Sunday 2024-05-19, 23:10 — request ACC-40105 from Jorge Medina (contractor, Ironfield Advisory)
        System: hr-core · access: admin · duration: 30 days
        "Need to set up the SSO connector and the provisioning rules before Monday's go-live."
    """, 3),  # 2 + 1 + 1 + 1 + 1 = 6
    it(RISK, {
        "ticket": "ACC-40106",
        "submitted": "Thursday 2024-05-23 16:00",
        "requester": {"name": "Samuel Adjei", "employment": "permanent", "team": "FP&A"},
        "system": "finance-reports",
        "access": "read",
        "duration": "30 days",
        "reason": "Half-year forecast pack.",
    }, 1),  # 1 + 1 = 2
    it(RISK, {
        "ticket": "ACC-40107",
        "submitted": "Friday 2024-05-24 19:45",
        "requester": {"name": "Kofi Mensah", "employment": "contractor", "vendor": "Brightwave Consulting"},
        "system": "git-monorepo",
        "access": "write",
        "duration": "10 days",
        "reason": "Hotfix branch for the checkout redesign.",
    }, 3),  # 1 + 1 + 1 + 1 + 1 = 5
    it(RISK, """
        Request ACC-40112, submitted Tuesday 2024-05-21 07:40
        Requester: Elif Arslan (permanent, Growth Analytics)
        System: analytics-warehouse — read — 7 days
        Reason: one-off funnel analysis for the pricing page test.
    """, 1),  # 1 + early 1 = 2 (exactly 7 days is not longer than 7)
    it(RISK, {
        "ticket": "ACC-40109",
        "submitted": "Wednesday 2024-05-22 12:00",
        "requester": {"name": "Nina Kraus", "employment": "permanent", "team": "Support"},
        "system": "status-dashboard",
        "access": "write",
        "duration": "2 days",
        "reason": "Cover incident communications while the usual lead is at a conference.",
    }, 0),  # write 1
    it(RISK, {
        "ticket": "ACC-40110",
        "submitted": "Monday 2024-05-20 10:00",
        "requester": {"name": "Hugo Lambert", "employment": "permanent", "team": "CRM Platform"},
        "system": "crm-prod",
        "access": "write",
        "duration": "14 days",
        "reason": "Data clean-up of duplicate accounts after the migration.",
    }, 2),  # 2 + 1 + 1 = 4
    it(RISK, """
        ACC-40111 · Thu 2024-05-23 09:00 · Rob Janssen (contractor, Helpline Outsourcing)
        crm-prod · read · 3 days
        Reason: shadowing the in-house support team before the outsourcing pilot starts.
    """, 2),  # 2 + 1 = 3
    it(RISK, {
        "ticket": "ACC-40113",
        "submitted": "Wednesday 2024-05-22 15:00",
        "requester": {"name": "Marco Bellini", "employment": "permanent", "team": "Developer Productivity"},
        "system": "jira",
        "access": "admin",
        "duration": "1 day",
        "reason": "Archive 40 stale projects and fix workflow permissions.",
    }, 0),  # admin 1
    it(RISK, """
        Submitted: Tuesday 2024-05-21, 18:30 (ticket ACC-40114)
        Requester: Gareth Pryce — contractor (Ashgrove Payments)
        System: billing-db — read — 60 days
        Reason: settlement reconciliation for the whole integration rollout.
    """, 3),  # 2 + 1 + 1 + 1 (18:30 is after 18:00) = 5
    it(RISK, {
        "ticket": "ACC-40115",
        "submitted": "Wednesday 2024-05-22 11:00",
        "requester": {"name": "Fatou Ndiaye", "employment": "permanent", "team": "People Analytics"},
        "system": "hr-core",
        "access": "read",
        "duration": "no end date",
        "reason": "Monthly attrition reporting.",
    }, 2),  # 2 + 1 = 3
    # ---- access review: how many to revoke (score) --------------------------------------------------------
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0117",
        "user": "s.adjei",
        "title": "FP&A Analyst",
        "department": "Finance",
        "entitlements": [
            {"name": "finance-reports", "department": "Finance", "last_used": "2024-06-27"},
            {"name": "jira", "department": "company-wide", "last_used": "2024-06-29"},
            {"name": "analytics-warehouse", "department": "Finance", "last_used": "2024-05-02"},
        ],
        "reviewer": "Leila Haddad",
    }, 0),
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0121",
        "user": "m.horvat",
        "title": "Support Agent, tier 1",
        "department": "Support",
        "entitlements": [
            {"name": "crm-prod", "department": "Support", "last_used": "2024-06-20"},
            {"name": "zendesk-admin", "department": "Support", "last_used": "2024-02-11"},
            {"name": "wiki", "department": "company-wide", "last_used": "2024-06-28"},
        ],
        "reviewer": "Dana Okafor",
    }, 1),  # zendesk-admin unused since February
    it(REVOKE_COUNT, """
        User: r.green — moved from Sales to Marketing on 2024-04-15 (current department: Marketing)
        Entitlements:
          salesforce-edit   dept Sales       last used 2024-04-12
          marketing-cms     dept Marketing   last used 2024-06-25
          hubspot           dept Marketing   never used
          jira              company-wide     last used 2024-06-30
    """, 2),  # salesforce-edit (other department), hubspot (never used)
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0133",
        "user": "t.zielinski",
        "title": "Backend Engineer",
        "department": "Engineering",
        "entitlements": [
            {"name": "git-monorepo", "department": "Engineering", "last_used": "2024-06-28"},
            {"name": "billing-db read", "department": "Engineering", "temporary_until": "2024-05-31",
             "last_used": "2024-05-30"},
            {"name": "hr-core read", "department": "HR", "last_used": "2024-06-03"},
            {"name": "aws-prod-admin", "department": "Engineering", "last_used": "2024-03-02"},
            {"name": "status-dashboard", "department": "company-wide", "last_used": "2024-06-01"},
        ],
    }, 3),  # billing-db (expired), hr-core (HR), aws-prod-admin (unused) = 3
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0140",
        "user": "a.owusu",
        "title": "Support Agent, tier 2",
        "department": "Support",
        "entitlements": [
            {"name": "crm-prod", "department": "Support", "temporary_until": "2024-07-15", "last_used": "2024-06-18"},
            {"name": "looker", "department": "Support", "last_used": None},
            {"name": "jira", "department": "company-wide", "last_used": "2024-06-21"},
        ],
        "reviewer": "Dana Okafor",
    }, 1),  # looker never used; crm-prod grant still running
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0146",
        "user": "y.nasser",
        "title": "Data Scientist",
        "department": "Data",
        "entitlements": [
            {"name": "analytics-warehouse", "department": "Data", "last_used": "2024-04-03"},
            {"name": "airflow", "department": "Data", "last_used": "2024-06-11"},
            {"name": "billing-db read", "department": "Data", "temporary_until": "2024-09-30",
             "last_used": "2024-06-02"},
        ],
        "reviewer": "Oscar Hale",
    }, 0),  # 3 April is after 1 April; temporary grant still running
    it(REVOKE_COUNT, """
        Access review AR-2024-Q2-0152 — user f.ndiaye (HR Analyst; current department: HR)
        - hr-core ............ HR ............ last used 2024-06-29
        - payroll-export ..... HR ............ last used 2024-03-28
        - finance-reports .... Finance ....... last used 2024-06-10
        - wiki ............... company-wide .. last used 2024-06-12
        Reviewer: Grace Mbeki
    """, 2),  # payroll-export (unused), finance-reports (other department)
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0158",
        "user": "c.walsh",
        "title": "Sales Operations Analyst",
        "department": "Sales",
        "entitlements": [
            {"name": "salesforce-edit", "department": "Sales", "last_used": "2024-06-24"},
            {"name": "crm-prod", "department": "Support", "last_used": "2024-06-01"},
            {"name": "git-monorepo", "department": "Engineering", "last_used": "2023-12-04"},
            {"name": "analytics-warehouse", "department": "Sales", "temporary_until": "2024-06-15",
             "last_used": "2024-06-14"},
        ],
    }, 3),  # crm-prod, git-monorepo, analytics-warehouse = 3
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0163",
        "user": "p.oneill",
        "title": "Platform Engineer",
        "department": "Engineering",
        "entitlements": [
            {"name": "jenkins", "department": "Engineering", "last_used": "2024-06-27"},
            {"name": "hr-core read", "department": "HR", "temporary_until": "2024-05-01", "last_used": None},
            {"name": "pagerduty", "department": "Engineering", "last_used": "2024-06-30"},
        ],
        "reviewer": "Marcus Webb",
    }, 1),  # only hr-core, counted once for three reasons
    it(REVOKE_COUNT, """
        Reviewer notes for h.price (Product Marketing Manager, department: Marketing):
        marketing-cms (Marketing) — last used 3 June 2024.
        crm-prod (Marketing, temporary grant until 29 June 2024) — last used 28 June 2024.
        google-ads-admin (Marketing) — last used 31 March 2024.
        jira (company-wide) — last used 14 June 2024.
    """, 2),  # crm-prod grant ended 29 June; google-ads-admin last used 31 March
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0171",
        "user": "o.petrenko",
        "title": "Accounts Receivable Analyst",
        "department": "Finance",
        "history": "moved from Support to Finance on 2024-05-01",
        "entitlements": [
            {"name": "crm-prod", "department": "Support", "last_used": "2024-04-29"},
            {"name": "zendesk", "department": "Support", "last_used": "2024-04-30"},
            {"name": "refunds-standard", "department": "Support", "last_used": "2024-04-30"},
            {"name": "finance-reports", "department": "Finance", "last_used": "2024-06-28"},
            {"name": "sap-fi", "department": "Finance", "last_used": None},
        ],
    }, 3),  # 3 Support entitlements + sap-fi never used = 4
    it(REVOKE_COUNT, {
        "review": "AR-2024-Q2-0178",
        "user": "n.kraus",
        "title": "Support Lead",
        "department": "Support",
        "entitlements": [
            {"name": "crm-prod", "department": "Support", "last_used": "2024-06-30"},
            {"name": "zendesk", "department": "Support", "last_used": "2024-06-30"},
            {"name": "wiki", "department": "company-wide", "last_used": "2024-05-20"},
            {"name": "payments-viewer", "department": "Support", "temporary_until": "2024-07-31",
             "last_used": "2024-06-25"},
        ],
    }, 0),
    it(REVOKE_COUNT, """
        Review AR-2024-Q2-0184 · user e.arslan · Growth Analyst · department Data
        analytics-warehouse (Data) ........ last used 2024-06-29
        tableau-creator (Data) ............ last used 2024-01-19
        git-monorepo (Data) ............... last used 2024-06-05
        Manager comment: "all still needed I think"
    """, 1),  # tableau-creator
    # ---- missing approvals (score) ------------------------------------------------------------------------
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50101",
        "requester": {"name": "Aylin Demir", "employment": "permanent"},
        "system": "crm-prod",
        "access": "read",
        "approvers": {"line_manager": "Jonas Berg", "data_owner": "Priya Raman"},
        "approvals": [
            {"role": "line_manager", "by": "Jonas Berg", "status": "approved"},
            {"role": "data_owner", "by": "Priya Raman", "status": "approved"},
        ],
    }, 0),  # needs LM + DO; both in
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50104",
        "requester": {"name": "Paulina Nowak", "employment": "permanent"},
        "system": "billing-db",
        "access": "write",
        "approvers": {"line_manager": "Rui Tavares", "data_owner": "Victor Huang", "security": "Security on-duty"},
        "approvals": [
            {"role": "line_manager", "by": "Rui Tavares", "status": "approved"},
            {"role": "data_owner", "by": "Victor Huang", "status": "approved"},
            {"role": "security", "by": "Security on-duty", "status": "pending"},
        ],
    }, 1),  # Security missing
    it(MISSING_APPROVALS, """
        Request ACC-50109: Kofi Mensah (contractor) — analytics-warehouse — write
        Named approvers: line manager Helen Ford; Security: Security on-duty; sponsor: Arjun Mehta
        Status:
          line manager Helen Ford — approved
          Security — (not yet requested)
          sponsor Arjun Mehta — declined ("project ended, please re-raise")
    """, 2),  # needs LM, Security, sponsor; Security and sponsor missing
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50112",
        "requester": {"name": "Jorge Medina", "employment": "contractor"},
        "system": "hr-core",
        "access": "admin",
        "approvers": {"line_manager": "Rui Tavares", "data_owner": "Ahmed Farouk",
                      "security": "Security on-duty", "sponsor": "Michael Osei"},
        "approvals": [
            {"role": "line_manager", "by": "Rui Tavares", "status": "approved"},
            {"role": "data_owner", "by": "Ahmed Farouk", "status": "pending"},
            {"role": "sponsor", "by": "Michael Osei", "status": "pending"},
        ],
    }, 3),  # needs 4, has 1: 3 missing
    it(MISSING_APPROVALS, """
        ACC-50117 · Holly Price (permanent employee, Marketing) · wiki · read
        Reason: reading the brand guidelines space.
        Approvals so far: line manager Dev Malhotra — approved at 09:12.
        No other approvers are named on the ticket.
    """, 0),  # only the line manager is required
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50124",
        "requester": {"name": "Bogdan Popescu", "employment": "permanent"},
        "system": "crm-prod",
        "access": "read",
        "approvers": {"line_manager": "Hana Sato", "data_owner": "Hana Sato"},
        "approvals": [
            {"role": "line_manager", "by": "Hana Sato", "status": "approved"},
            {"role": "data_owner", "by": "Hana Sato", "status": "approved"},
        ],
        "note": "Hana runs Key Accounts and also owns the CRM data set.",
    }, 1),  # same person in two roles counts once
    it(MISSING_APPROVALS, """
        Request ACC-50131 — Pieter de Vries (contractor, Loomwise) — jira — read
        Approvals:
          line manager (Marco Bellini): approved
          sponsor (Julia Sommer): delegated — "forwarding to my team assistant, Kim, to handle"
    """, 1),  # sponsor approval not 'approved'
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50135",
        "requester": {"name": "Ines Duarte", "employment": "permanent", "team": "Security Engineering"},
        "system": "crm-prod",
        "access": "admin",
        "approvers": {"line_manager": "Michael Osei", "data_owner": "Priya Raman", "security": "Ines Duarte"},
        "approvals": [
            {"role": "line_manager", "by": "Michael Osei", "status": "approved"},
            {"role": "data_owner", "by": "Priya Raman", "status": "pending"},
            {"role": "security", "by": "Ines Duarte", "status": "approved"},
        ],
    }, 2),  # data owner pending; Security approved by the requester herself
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50140",
        "requester": {"name": "Kofi Mensah", "employment": "contractor"},
        "system": "git-monorepo",
        "access": "write",
        "approvers": {"line_manager": "Helen Ford", "sponsor": "Arjun Mehta"},
        "approvals": [
            {"role": "line_manager", "by": "Helen Ford", "status": "approved"},
            {"role": "sponsor", "by": "Arjun Mehta", "status": "approved"},
        ],
    }, 0),  # git-monorepo is not production: no Security needed
    it(MISSING_APPROVALS, """
        Ticket ACC-50146: Gareth Pryce (contractor, Ashgrove Payments) → billing-db, read, 3 days
        Line manager Mei Tanaka: pending
        Data owner Victor Huang: pending
        Sponsor Henrik Dahl: pending
        Auto-reminders sent to all three approvers at 09:00.
    """, 3),  # needs 3, none approved
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50151",
        "requester": {"name": "Wen Zhao", "employment": "permanent"},
        "system": "hr-core",
        "access": "write",
        "approvers": {"line_manager": "Grace Mbeki", "data_owner": "Ahmed Farouk", "security": "Security on-duty"},
        "approvals": [
            {"role": "security", "by": "Security on-duty", "status": "approved"},
            {"role": "line_manager", "by": "Grace Mbeki", "status": "pending"},
        ],
    }, 2),  # LM and data owner missing
    it(MISSING_APPROVALS, """
        Request ACC-50158 from Fatou Ndiaye (permanent employee) for hr-core, read-only, 3 days.
        Line manager Grace Mbeki — approved.
        Data owner Ahmed Farouk — approved by Greg Lowe ("acting for Ahmed while he's away").
    """, 1),  # data-owner approval not given by the named person
    it(MISSING_APPROVALS, {
        "ticket": "ACC-50163",
        "requester": {"name": "Camille Laurent", "employment": "contractor"},
        "system": "billing-db",
        "access": "admin",
        "approvers": {"line_manager": "Oscar Hale", "data_owner": "Victor Huang",
                      "security": "Security on-duty", "sponsor": "Oscar Hale"},
        "approvals": [
            {"role": "line_manager", "by": "Oscar Hale", "status": "approved"},
            {"role": "sponsor", "by": "Oscar Hale", "status": "approved"},
            {"role": "data_owner", "by": "Victor Huang", "status": "approved"},
            {"role": "security", "by": "Security on-duty", "status": "pending"},
        ],
    }, 2),  # needs 4; Oscar counts once, Victor counts: 2 of 4 present
]
