"""Build data/choice_bench/choices.jsonl: hand-written multiple-choice items for order-bias and accuracy.

Every item below was written by hand for onepass (no benchmark was copied). Each is one System One
request with a single `choice` question plus the gold option name. Options are written in the order
they are sent; the gold's position was chosen per item so that golds spread over first, middle and
last positions (see docs/choice-bench.md).

Run from the repository root:

    .venv/bin/python data/choice_bench/build.py

The output is byte-identical on every run (no randomness, no timestamps, fixed key order).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

MODEL = "jev-latest"
OUT = Path(__file__).resolve().parent / "choices.jsonl"

ITEMS: list[dict] = []


def item(domain: str, hard: bool, state, instructions: str, options: list, gold: str) -> None:
    """options: a list of `"name"` (null description) or `("name", "description")`, in sent order."""
    criteria: dict = {}
    for option in options:
        name, description = (option, None) if isinstance(option, str) else option
        if name in criteria:
            raise ValueError(f"duplicate option {name!r} in item {len(ITEMS) + 1}")
        criteria[name] = description
    if gold not in criteria:
        raise ValueError(f"gold {gold!r} is not an option of item {len(ITEMS) + 1}")
    if not 3 <= len(criteria) <= 12:
        raise ValueError(f"item {len(ITEMS) + 1} has {len(criteria)} options")
    ITEMS.append({"domain": domain, "hard": hard, "state": state, "instructions": instructions,
                  "criteria": criteria, "gold": gold})


# =====================================================================================================
# support routing
# =====================================================================================================
SUPPORT = "support routing"

item(SUPPORT, False,
     "Hi, I was charged twice for my March subscription (two identical charges of $14.99 on the 3rd). "
     "Can you refund one of them?",
     "Which team should handle this ticket?",
     [("Billing", "charges, invoices, refunds and payment methods"),
      ("Technical support", "problems using the product"),
      ("Account access", "login, password and two-factor problems")],
     "Billing")

item(SUPPORT, True,
     "I asked for a refund on 2 May (ticket #48213) and your agent confirmed it was approved. It's now "
     "20 May and nothing has shown up on my card. When will I actually get the money?",
     "Classify the customer's request.",
     [("refund request", "asks for money back for a purchase"),
      ("cancellation request", "asks to stop a subscription or an order"),
      ("billing dispute", "disagrees that a charge is correct"),
      ("refund status inquiry", "asks about the progress of a refund that was already requested")],
     "refund status inquiry")

item(SUPPORT, False,
     {"subject": "Can't log in after changing phone",
      "body": "I got a new phone last week and the codes from my authenticator app don't work anymore. "
              "My password is accepted, then it asks for the 6-digit code and I'm stuck.",
      "plan": "Pro", "customer_since": "2021-09-14"},
     "Route this ticket to the right queue.",
     [("Password reset", "the user forgot their password or wants to change it"),
      "Billing",
      ("Two-factor recovery", "the user lost access to their authenticator or 2FA device"),
      "Account deletion",
      "Bug report"],
     "Two-factor recovery")

item(SUPPORT, False,
     "The 'Export to CSV' button on the Reports page does nothing in Firefox 126 — no download, no "
     "error. Same report exports fine in Chrome. Is this supposed to work?",
     "Which queue does this message belong in?",
     ["Feature request", "How-to question", "Billing", "Account access", "Bug report", "Sales inquiry"],
     "Bug report")

item(SUPPORT, True,
     "We're a 400-seat company comparing vendors. Is SSO with Okta available on the Team plan or only "
     "on Enterprise? We'd also need a quote for annual billing.",
     "Which team should answer this first?",
     [("Sales inquiry", "prospective customers asking about plans, pricing or quotes"),
      ("Technical support", "existing customers with a product problem"),
      ("Billing", "existing customers' invoices and payments"),
      ("How-to question", "how to use a feature the customer already has"),
      "Feature request",
      "Account access"],
     "Sales inquiry")

item(SUPPORT, True,
     "Please make sure my plan doesn't renew next month. I still want to use it until the end of the "
     "period I've paid for, and keep my projects in case I come back later.",
     "What is the customer asking for?",
     [("Cancellation request", "stop a subscription from renewing"),
      ("Account deletion", "permanently erase the account and its data"),
      ("Downgrade request", "move to a cheaper plan"),
      ("Refund request", "money back for a payment")],
     "Cancellation request")

item(SUPPORT, False,
     "Tracking for order #A-99120 says 'Delivered, left at front door' on Tuesday, but there's nothing "
     "there and my neighbours haven't seen it either.",
     "Pick the support category for this message.",
     ["Returns & exchanges", "Damaged item", "Wrong item received", "Delivery delay",
      "Order modification", "Lost or missing parcel", "Payment issue", "Product question",
      "Warranty claim"],
     "Lost or missing parcel")

item(SUPPORT, False,
     {"channel": "chat", "account": "FTTH-300", "message":
      "Since yesterday my internet drops every evening around 8pm for about ten minutes, then comes "
      "back by itself. The router lights stay green the whole time."},
     "Which ticket type fits this report?",
     ["New connection", "Relocation",
      ("Total outage", "no service at all"),
      ("Slow speeds", "connected, but slower than the plan"),
      "Router replacement", "Billing question", "Plan upgrade", "TV service",
      ("Intermittent connectivity", "service drops and comes back"),
      "Cancellation", "Mobile SIM"],
     "Intermittent connectivity")

item(SUPPORT, True,
     "Hi — I ordered the blue one in size M but I'd rather have the green one. The site says it hasn't "
     "shipped yet. Can you swap it?",
     "Route this request.",
     [("Returns & exchanges", "the customer has received the item and wants to send it back or swap it"),
      "Order cancellation",
      "Delivery delay",
      "Product question",
      ("Order modification", "change an order that has not shipped yet")],
     "Order modification")

# =====================================================================================================
# moderation category
# =====================================================================================================
MODERATION = "moderation category"

item(MODERATION, False,
     "Buy real followers now!!! 10k for only $5 👉 bit.ly/gr0wfast 👈 DM me, limited offer!!!",
     "Which policy, if any, does this comment violate?",
     ["Harassment", "Hate speech", "Spam", "No violation"],
     "Spam")

item(MODERATION, False,
     "Nobody in this thread wants you here, Dana. Every time you post it gets worse. Do us all a favour "
     "and delete your account.",
     "Which policy, if any, does this reply violate?",
     [("Hate speech", "attacks a group based on a protected attribute"),
      "Violent threat",
      "Spam",
      ("Harassment", "targets a specific person with abuse or intimidation"),
      "No violation"],
     "Harassment")

item(MODERATION, False,
     "Never rent to people from that country. They're all criminals and they ruin every neighbourhood "
     "they move into.",
     "Classify this post by policy.",
     [("Harassment", "targets a specific individual"),
      ("Hate speech", "attacks people based on a protected attribute such as national origin, religion "
                      "or ethnicity"),
      "Violent threat", "Misinformation", "Spam", "No violation"],
     "Hate speech")

item(MODERATION, False,
     "Loved this recipe — I added extra garlic and a squeeze of lemon and it was perfect.",
     "What should happen to this comment?",
     ["Remove", "Needs review", "Allow"],
     "Allow")

item(MODERATION, True,
     "My aunt stopped chemo and cured her stage 4 cancer in three weeks with apricot kernels and baking "
     "soda. Doctors will never tell you this. Share before it gets deleted!",
     "Which policy does this post violate?",
     [("Scam or fraud", "tries to get money or personal data by deception"),
      ("Spam", "bulk or repetitive promotional content"),
      "Self-harm", "Hate speech",
      ("Medical misinformation", "false health claims that could cause real harm"),
      "Harassment", "No violation"],
     "Medical misinformation")

item(MODERATION, True,
     "I know what car you drive. Keep posting reviews like that and I'll make sure you regret it when "
     "you're walking to it at night.",
     "Which policy best describes this message?",
     [("Harassment", "abusive or intimidating content aimed at a person"),
      ("Doxxing", "publishes someone's private personal information"),
      "Hate speech", "Spam", "Sexual content", "Self-harm",
      ("Violent threat", "states or strongly implies an intent to physically harm someone"),
      "No violation"],
     "Violent threat")

item(MODERATION, True,
     "For everyone asking: the guy from the viral parking video lives at 14 Elm St, apt 3B, and his kid "
     "goes to Lincoln Elementary. Do with that what you want.",
     "Which policy best describes this post?",
     [("Violent threat", "explicitly states an intent to physically harm someone"),
      ("Doxxing", "shares a private individual's personal information such as a home address"),
      "Harassment", "Hate speech", "Spam", "Impersonation", "Sexual content", "Self-harm",
      "Misinformation", "No violation"],
     "Doxxing")

item(MODERATION, False,
     "I don't really see the point anymore. I've been giving my things away and writing letters to "
     "everyone I care about.",
     "Which category applies to this post?",
     [("Self-harm risk", "signs the author may hurt themselves"),
      "Harassment", "Violent threat", "Spam", "No violation"],
     "Self-harm risk")

item(MODERATION, True,
     "Watching this match makes me want to kill the referee lol, worst offside call I've ever seen.",
     "Classify this comment.",
     [("Violent threat", "a real intent to harm someone"),
      ("No violation", "hyperbole or a figure of speech with no real intent"),
      ("Harassment", "abuse aimed at a specific person")],
     "No violation")

# =====================================================================================================
# log triage
# =====================================================================================================
LOGS = "log triage"

item(LOGS, False,
     "Jun 03 02:14:07 db-02 kernel: ata1.00: failed command: READ FPDMA QUEUED\n"
     "Jun 03 02:14:07 db-02 kernel: ata1.00: status: { DRDY ERR }\n"
     "Jun 03 02:14:07 db-02 kernel: ata1.00: error: { UNC }\n"
     "Jun 03 02:14:09 db-02 kernel: blk_update_request: I/O error, dev sda, sector 918273645\n"
     "Jun 03 02:15:00 db-02 smartd[812]: Device: /dev/sda [SAT], 48 Currently unreadable (pending) sectors",
     "What is the most likely root cause?",
     ["disk full", "disk failing", "filesystem permissions", "network timeout"],
     "disk failing")

item(LOGS, True,
     "2024-06-03 11:02:41 UTC [2231] ERROR:  could not create file \"base/16384/2619_fsm\": No space left on device\n"
     "$ df -h /var\n"
     "Filesystem      Size  Used Avail Use% Mounted on\n"
     "/dev/nvme0n1p3  200G   81G  119G  41% /var\n"
     "$ df -i /var\n"
     "Filesystem       Inodes  IUsed IFree IUse% Mounted on\n"
     "/dev/nvme0n1p3     13M    13M     0  100% /var",
     "What is the root cause of the error?",
     [("disk full", "no free blocks left on the filesystem"),
      ("disk failing", "hardware errors while reading or writing"),
      ("quota exceeded", "a per-user or per-group limit was reached"),
      ("inode exhaustion", "no free inodes although free blocks remain")],
     "inode exhaustion")

item(LOGS, False,
     "2024-06-03T09:41:12.118Z ERROR [http-nio-8080-exec-17] o.a.c.c.C.[.[.[/].[dispatcherServlet] "
     "Servlet.service() threw exception\n"
     "java.lang.OutOfMemoryError: Java heap space\n"
     "\tat java.base/java.util.Arrays.copyOf(Arrays.java:3537)\n"
     "\tat java.base/java.util.ArrayList.grow(ArrayList.java:237)\n"
     "\tat com.acme.reports.ExportService.collectRows(ExportService.java:88)",
     "Which failure does this trace show?",
     ["Heap memory exhaustion", "Thread deadlock", "Database connection pool", "Network partition",
      "Configuration error"],
     "Heap memory exhaustion")

item(LOGS, True,
     "2024-06-03 14:22:09.531 WARN  [HikariPool-1 housekeeper] HikariPool-1 - Pool stats (total=20, "
     "active=20, idle=0, waiting=143)\n"
     "2024-06-03 14:22:10.004 ERROR [http-nio-8080-exec-88] java.sql.SQLTransientConnectionException: "
     "HikariPool-1 - Connection is not available, request timed out after 30000ms.\n"
     "2024-06-03 14:22:10.006 INFO  [db-health] SELECT 1 on primary: 2 ms",
     "Which failure does this log show directly?",
     [("Database down", "the database server is unreachable"),
      ("Slow queries", "individual queries take too long to run"),
      "Network timeout", "Authentication failure", "Out of memory",
      ("Connection pool exhausted", "the application has no free connections to hand out")],
     "Connection pool exhausted")

item(LOGS, True,
     "2024/06/03 16:05:44 [error] 2817#2817: *991244 upstream timed out (110: Connection timed out) "
     "while reading response header from upstream, client: 203.0.113.54, server: api.example.com, "
     "request: \"GET /api/reports/annual?year=2023 HTTP/1.1\", upstream: "
     "\"http://10.0.3.7:8080/api/reports/annual?year=2023\", host: \"api.example.com\"",
     "Which subsystem is the most likely cause?",
     [("Firewall block", "packets to the backend are dropped, so connecting fails"),
      ("Upstream application slow", "the backend accepted the request but did not answer in time"),
      "DNS resolution", "TLS certificate", "Client disconnect", "Rate limiting",
      "Proxy misconfiguration"],
     "Upstream application slow")

item(LOGS, False,
     "Jun 02 09:14:55 worker-7 chronyd[611]: System clock synchronized to 10.0.0.2 (offset +0.000041s)\n"
     "Jun 02 09:14:55 worker-7 sync-agent[2210]: Get \"https://partner-api.example.net/v1/orders\": "
     "x509: certificate has expired or is not yet valid: current time 2024-06-02T09:14:55Z is after "
     "2024-06-01T23:59:59Z",
     "What is the cause of the failed request?",
     ["Clock skew", "DNS failure", "Wrong CA bundle", "TLS certificate expired", "Hostname mismatch",
      "Auth token expired", "Rate limited", "Connection refused"],
     "TLS certificate expired")

item(LOGS, False,
     "Name:         checkout-7d9f8b6c5-x2k4q\n"
     "State:        Waiting\n"
     "  Reason:     CrashLoopBackOff\n"
     "Last State:   Terminated\n"
     "  Reason:     OOMKilled\n"
     "  Exit Code:  137\n"
     "Limits:\n"
     "  memory:     512Mi\n"
     "Restart Count: 14",
     "Why does this pod keep restarting?",
     ["Liveness probe failing", "Image pull failure", "Bad configuration", "Node disk pressure",
      "Insufficient CPU", "Evicted", "Readiness probe failing", "Memory limit exceeded",
      "Volume mount error"],
     "Memory limit exceeded")

item(LOGS, False,
     "2024-06-03T18:02:11Z ERROR checkout-svc stripe.error.CardError: Your card was declined. "
     "(code=card_declined, decline_code=insufficient_funds) order=O-55812 user=u_88213",
     "Which subsystem produced this error?",
     ["Payments", "Authentication", "Search", "Notifications", "Inventory", "Shipping", "Analytics",
      "User profile", "Cache", "Database", "Scheduler", "CDN"],
     "Payments")

item(LOGS, False,
     "Events:\n"
     "  Normal   Pulling  12s (x3 over 58s)  kubelet  Pulling image \"registry.internal.acme.io/api:v2.3.1\"\n"
     "  Warning  Failed   11s (x3 over 57s)  kubelet  Failed to pull image "
     "\"registry.internal.acme.io/api:v2.3.1\": rpc error: code = Unknown desc = failed to authorize: "
     "failed to fetch oauth token: unexpected status: 401 Unauthorized\n"
     "  Warning  Failed   11s (x3 over 57s)  kubelet  Error: ErrImagePull\n"
     "  Normal   BackOff  0s (x4 over 56s)   kubelet  Back-off pulling image \"registry.internal.acme.io/api:v2.3.1\"",
     "What is the root cause?",
     [("Image tag does not exist", "the registry answers 'manifest unknown' or 'not found'"),
      "Registry unreachable", "Registry rate limit", "Node disk pressure",
      ("Registry auth failure", "missing or invalid pull credentials"),
      "Memory limit exceeded", "Liveness probe failure", "Bad ConfigMap", "Node not ready",
      "Admission webhook denial"],
     "Registry auth failure")

item(LOGS, False,
     "2024-06-03T07:30:02Z level=error msg=\"cache init failed\" err=\"dial tcp: lookup "
     "redis.prod.svc.cluster.local on 10.96.0.10:53: no such host\"",
     "What kind of failure is this?",
     ["Connection refused", "Network timeout", "DNS resolution failure"],
     "DNS resolution failure")

# =====================================================================================================
# retrieval
# =====================================================================================================
RETRIEVAL = "retrieval"

item(RETRIEVAL, True,
     {"question": "In which year did Halden & Co. actually start the four-day work week?",
      "passages": {
          "A": "Halden & Co. announced in March 2021 that it would trial a four-day week the following "
               "year, pending union approval.",
          "B": "A 2023 survey found that 78% of Halden employees preferred the four-day schedule to "
               "the old five-day week.",
          "C": "Staff at Halden & Co. have worked a four-day week since January 2022, after the union "
               "approved the trial in late 2021."}},
     "Which passage answers the question?",
     ["Passage A", "Passage B", "Passage C"],
     "Passage C")

item(RETRIEVAL, True,
     {"question": "How long is the battery of the X200 covered by warranty?",
      "passages": {
          "1": "The X200 comes with a two-year limited warranty covering manufacturing defects.",
          "2": "The X100's battery is covered for 18 months from the date of purchase.",
          "3": "Batteries in the X200 are treated as consumables and are covered for 12 months, "
               "separately from the device warranty.",
          "4": "Products may be returned within 30 days for a full refund."}},
     "Which passage answers the question?",
     ["Passage 1", "Passage 2", "Passage 3", "Passage 4"],
     "Passage 3")

item(RETRIEVAL, False,
     "The Rhine rises in the Swiss Alps, forms part of the border between Switzerland and Germany and "
     "later between France and Germany, then flows through the Netherlands into the North Sea.",
     "Which statement is supported by the passage?",
     ["Ends in the Baltic Sea", "Rises in the Black Forest", "Crosses Belgium",
      "Borders Austria and Italy", "Ends in the North Sea"],
     "Ends in the North Sea")

item(RETRIEVAL, True,
     "I'm switching from my work email to my personal Gmail. Can I change the email I log in with "
     "without losing my order history?",
     "Which help article should we show?",
     [("Update billing email", "where invoices and receipts are sent"),
      ("Change your email address", "the address you sign in with and receive account mail at"),
      "Change your username", "Merge two accounts", "Export order history", "Delete your account"],
     "Change your email address")

item(RETRIEVAL, False,
     "How do I rotate our production API key without any downtime for the integrations that use it?",
     "Which documentation section answers this?",
     ["Creating API keys",
      ("Revoking API keys", "immediately disable a key"),
      ("Zero-downtime deployments", "roll out new application versions without an outage"),
      ("Rotating API keys", "issue a new key while the old one keeps working for a grace period"),
      "API rate limits", "Webhook signatures", "OAuth scopes"],
     "Rotating API keys")

item(RETRIEVAL, False,
     {"question": "Why does water boil at a lower temperature on a high mountain?",
      "passages": {
          "P1": "Mount Everest is 8,849 m tall and lies on the border between Nepal and China.",
          "P2": "Salting pasta water mainly adds flavour; it raises the boiling point only slightly.",
          "P3": "Spreading salt on roads lowers the freezing point of water.",
          "P4": "Pressure cookers trap steam, so the pressure rises and food cooks above 100 °C.",
          "P5": "Tea brewed with water below 90 °C tastes noticeably weaker.",
          "P6": "A liquid boils when its vapour pressure equals the surrounding air pressure; because "
                "air pressure falls with altitude, water boils at about 70 °C near the summit of Everest.",
          "P7": "Humidity measures how much water vapour the air holds.",
          "P8": "Climbers use bottled oxygen because the air at altitude holds less oxygen per breath."}},
     "Which passage best answers the question?",
     ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"],
     "P6")

item(RETRIEVAL, True,
     "Looking for a women's waterproof trail running shoe in a wide fit.",
     "Which catalogue product matches the query?",
     [("Ridgeback 3", "men's trail running shoe, waterproof, wide fit available"),
      ("Ridgeback 3 W", "women's trail running shoe, not waterproof, wide fit available"),
      ("Summit GTX W", "women's waterproof hiking boot, wide fit"),
      ("Tempo Road W", "women's road running shoe, waterproof"),
      ("Trailblaze W", "women's trail running shoe, waterproof, standard width only"),
      ("Ascent Mid", "unisex waterproof hiking boot"),
      ("Cloudpath W", "women's road running shoe, wide fit"),
      ("Mudrunner", "men's waterproof trail running shoe"),
      ("Pacer Lite W", "women's track spike"),
      ("Canyon Sandal W", "women's hiking sandal"),
      ("Trailblaze W Wide", "women's trail running shoe, waterproof, wide fit")],
     "Trailblaze W Wide")

item(RETRIEVAL, False,
     "My package has said 'held at customs' for three days. Do I need to pay something to get it released?",
     "Which help-centre article is most relevant?",
     [("Import duties and taxes", "fees the recipient may owe when a parcel enters the country"),
      "Tracking your order", "International shipping times", "Returns from abroad",
      ("Customs forms for sellers", "documents merchants fill in when sending abroad"),
      "Delivery exceptions", "Payment methods", "Lost packages", "Changing the delivery address"],
     "Import duties and taxes")

# =====================================================================================================
# tool routing
# =====================================================================================================
TOOLS = "tool routing"

item(TOOLS, False,
     "Will I need an umbrella in Lisbon tomorrow?",
     "Which tool should the assistant call?",
     [("get_weather", "forecast for a place and date"),
      ("web_search", "search the public web"),
      ("calendar_create_event", "add an event to the user's calendar")],
     "get_weather")

item(TOOLS, True,
     "Remind me to call the dentist at 3pm.",
     "Which tool should the assistant call?",
     [("create_reminder", "notify the user with a message at a given time"),
      ("calendar_create_event", "add an event with a start and end time, optionally inviting attendees"),
      ("set_timer", "count down a duration and ring"),
      ("send_message", "send a text to a contact")],
     "create_reminder")

item(TOOLS, False,
     "How much is 250 USD in yen right now?",
     "Which tool should be called?",
     [("calculator", "evaluate arithmetic expressions"),
      ("unit_convert", "convert physical units such as km to miles"),
      ("get_stock_quote", "latest price of a listed stock"),
      ("currency_convert", "convert money using current exchange rates"),
      "web_search"],
     "currency_convert")

item(TOOLS, False,
     "How many orders did we ship last week, broken down by region?",
     "Which tool should the analyst agent use?",
     [("search_docs", "search the internal wiki"),
      ("create_dashboard", "save a chart to a dashboard"),
      ("http_get", "fetch a URL"),
      ("sql_query", "run a read-only SQL query on the analytics warehouse (tables: orders, shipments, regions)"),
      "send_email",
      ("python_exec", "run Python in a sandbox with no data access")],
     "sql_query")

item(TOOLS, True,
     "Give the existing user mkhan read-only access to the finance-reports bucket, and nothing else.",
     "Which API call does this need?",
     [("iam.attach_policy", "attach an account-wide managed policy to a user"),
      "iam.create_user",
      ("iam.add_to_group", "add a user to a group so they inherit its policies"),
      "storage.create_bucket",
      ("storage.make_public", "allow anonymous reads on a bucket"),
      "iam.create_role",
      ("storage.set_bucket_acl", "grant one user a permission on a single bucket")],
     "storage.set_bucket_acl")

item(TOOLS, False,
     "The fix is already committed and pushed on branch fix-readme-typo. Open a pull request for it "
     "against main.",
     "Which tool should the agent call next?",
     ["create_branch", "create_pull_request", "git_commit", "create_issue", "merge_pull_request",
      "comment_on_issue", "list_pull_requests", "close_issue"],
     "create_pull_request")

item(TOOLS, True,
     {"utterance": "it's a bit dark in here", "room": "living room", "local_time": "22:40",
      "devices": {"ceiling_light": "on, brightness 20%", "blinds": "closed", "tv": "off"}},
     "Which smart-home action should the assistant take?",
     [("lights.turn_on", "switch on a light that is currently off"),
      ("blinds.open", "open the window blinds"),
      ("lights.set_brightness", "change the brightness of a light that is already on"),
      "thermostat.set", "tv.power", "speaker.play", "lock.lock", "camera.view", "vacuum.start",
      "scene.activate"],
     "lights.set_brightness")

item(TOOLS, False,
     "Can you put this into German for our Berlin office? 'Our office will be closed on Friday for the "
     "public holiday. Urgent requests can go to support@example.com.'",
     "Which tool should handle this?",
     ["detect_language", "summarize_text", "text_to_speech", "speech_to_text", "spell_check",
      "web_search", "send_email", "translate_text", "ocr_image", "sentiment_analysis",
      "create_document", "dictionary_lookup"],
     "translate_text")

# =====================================================================================================
# intent classification
# =====================================================================================================
INTENT = "intent classification"

item(INTENT, False,
     "how much do I have left in my checking account?",
     "What is the user's intent?",
     ["Transfer money", "Report lost card", "Check balance"],
     "Check balance")

item(INTENT, True,
     "There's a $612 charge from an electronics store in Denver yesterday. I've never been to Denver "
     "and I still have my card with me.",
     "What is the customer's intent?",
     [("Report lost card", "the card itself is lost or stolen"),
      ("Report fraudulent transaction", "a charge the customer did not make"),
      ("Dispute a charge", "the customer made the purchase but disagrees with the merchant, e.g. item "
                           "not received"),
      ("Freeze card", "temporarily block the card")],
     "Report fraudulent transaction")

item(INTENT, False,
     "put on something chill for studying",
     "Which voice-assistant intent is this?",
     ["Set alarm", "Get weather", "Add to shopping list", "Play music", "Call contact"],
     "Play music")

item(INTENT, False,
     "Can I bring my guitar on board, or does it have to be checked?",
     "Which airline intent is this?",
     ["Change flight", "Check-in", "Baggage policy", "Special assistance", "Seat selection",
      "Buy extra baggage"],
     "Baggage policy")

item(INTENT, True,
     "I need to move my Lisbon flight from Wednesday to Friday — ideally keeping a window seat like I "
     "have now.",
     "What is the traveller's main intent?",
     [("Seat selection", "choose or change a seat on an existing flight"),
      ("Change flight", "move a booking to a different date or time"),
      "Cancel booking", "Check-in", "Baggage policy"],
     "Change flight")

item(INTENT, False,
     "Bonsoir, je voudrais réserver une table pour deux ce soir vers 20h, en terrasse si possible.",
     "What does the guest want?",
     ["Café order", "Menu question", "Opening hours", "Cancel booking", "Complaint", "Réservation",
      "Takeaway order"],
     "Réservation")

item(INTENT, True,
     "My manager approved my leave for 12–16 August last week, but the portal still shows it as "
     "pending. Will it go through?",
     "Which HR-helpdesk intent is this?",
     [("Request leave", "submit a new leave request"),
      ("Leave balance inquiry", "how many leave days are left"),
      "Payroll question",
      ("Portal technical problem", "the HR portal won't load, shows errors or login fails"),
      ("Leave approval status", "where an existing leave request stands"),
      "IT access", "Benefits enrollment", "Update personal details"],
     "Leave approval status")

item(INTENT, False,
     "Hi, do you still have the Harbor rain jacket in XL? The page only lists S and M.",
     "Which shop intent is this?",
     ["Order status", "Product availability", "Return request", "Size guide", "Shipping cost",
      "Discount codes", "Store locations", "Payment options", "Product care"],
     "Product availability")

item(INTENT, False,
     "wake me up at 6:45 tomorrow",
     "Which assistant intent is this?",
     [("Set alarm", "ring at a clock time, e.g. to wake up"),
      ("Set timer", "count down a duration"),
      ("Set reminder", "show a message at a given time"),
      "Play music",
      "Get weather", "Read news", "Call contact", "Send message", "Navigate", "Add calendar event",
      "Turn on lights"],
     "Set alarm")

item(INTENT, True,
     "If I cancel now, halfway through my annual plan, do I get anything back for the unused months?",
     "What is the customer's intent?",
     [("Cancellation request", "asks us to cancel the subscription"),
      ("Refund policy question", "asks what the rules are for getting money back"),
      ("Refund request", "asks us to return money for a payment")],
     "Refund policy question")

# =====================================================================================================
# sentiment / emotion
# =====================================================================================================
SENTIMENT = "sentiment/emotion"

item(SENTIMENT, False,
     "The battery easily lasts two days and the screen is gorgeous.",
     "What is the sentiment of this review?",
     ["Negative", "Neutral", "Positive"],
     "Positive")

item(SENTIMENT, True,
     "Oh fantastic. My flight got cancelled again, the third time this month. Just what I needed.",
     "What is the sentiment of this message?",
     ["Negative", "Neutral", "Positive"],
     "Negative")

item(SENTIMENT, True,
     "They called me back after two months of silence — I GOT THE JOB!!! I'm dancing around my kitchen "
     "right now.",
     "What is the dominant emotion?",
     ["Surprise", "Joy", "Anger", "Sadness", "Fear"],
     "Joy")

item(SENTIMENT, False,
     "My dog passed away this morning. The house feels so empty without him.",
     "What emotion does the writer express?",
     ["Anger", "Fear", "Disgust", "Sadness", "Joy", "Surprise"],
     "Sadness")

item(SENTIMENT, True,
     "The food was excellent — best ramen I've had in years — but we waited 50 minutes for a table and "
     "the host was rude when we asked how much longer.",
     "What is the reviewer's sentiment about the service (not the food)?",
     ["Positive", "Negative", "Mixed", "Not mentioned"],
     "Negative")

item(SENTIMENT, True,
     "It's okay. Does the job, nothing special, but I wouldn't buy it again.",
     "Rate the sentiment of this review.",
     ["Very negative", "Negative", "Slightly negative", "Neutral", "Slightly positive", "Positive",
      "Very positive"],
     "Slightly negative")

item(SENTIMENT, False,
     "Ugh, someone left rotten fish in the office fridge again. The smell is unbearable, I nearly gagged.",
     "Which emotion is dominant?",
     ["Joy", "Trust", "Fear", "Surprise", "Sadness", "Disgust", "Anger", "Anticipation"],
     "Disgust")

item(SENTIMENT, False,
     "Thank you so much for jumping on this on a Sunday — you saved our launch. Drinks are on me next time!",
     "Which emotion best describes the customer?",
     ["Frustration", "Anger", "Disappointment", "Confusion", "Anxiety", "Relief", "Satisfaction",
      "Impatience", "Gratitude", "Indifference"],
     "Gratitude")

# =====================================================================================================
# document type
# =====================================================================================================
DOCTYPE = "document type"

item(DOCTYPE, False,
     "INVOICE No. 2024-0117\n"
     "Issue date: 3 June 2024\n"
     "Bill to: Norwood Studio Ltd\n"
     "Web design services (May) ........ €1,240.00\n"
     "Amount due: €1,240.00\n"
     "Payment terms: 30 days, bank transfer to IBAN DE89 3704 0044 0532 0130 00",
     "What type of document is this?",
     ["Receipt", "Invoice", "Quote"],
     "Invoice")

item(DOCTYPE, False,
     "Corner Bakery\n2 x Croissant        3.00\n1 x Flat white       3.20\nTOTAL                6.20\n"
     "Paid: VISA ****4412\nThank you for your visit!",
     "What type of document is this?",
     ["Invoice", "Purchase order", "Quote", "Receipt"],
     "Receipt")

item(DOCTYPE, True,
     "Ref. invoice 2024-0117 (Norwood Studio Ltd)\n"
     "Reason: 2 hours of design work were billed twice.\n"
     "The amount below will be deducted from your next payment: −€120.00",
     "What type of document is this?",
     [("Invoice", "requests payment for goods or services"),
      ("Pro forma invoice", "a preliminary invoice sent before delivery"),
      ("Credit note", "reduces the amount owed on an earlier invoice")],
     "Credit note")

item(DOCTYPE, False,
     "This Mutual Agreement is entered into as of 1 July 2024 between Brightline Labs Inc. and Ostrava "
     "Analytics s.r.o. (each a \"Party\"). Each Party may disclose Confidential Information to the other "
     "solely to evaluate a potential partnership. The Receiving Party shall not disclose Confidential "
     "Information to any third party for three (3) years from the date of disclosure.",
     "What type of document is this?",
     ["Employment contract", "Service agreement", "Non-disclosure agreement", "Lease", "Privacy policy"],
     "Non-disclosure agreement")

item(DOCTYPE, True,
     "We collect your email address, device identifiers and approximate location to provide and improve "
     "the app. We never sell your personal data. You can request a copy of your data or ask us to delete "
     "it at any time from Settings → Privacy. If you are in the EU, you also have the right to lodge a "
     "complaint with your local supervisory authority.",
     "What type of document is this excerpt from?",
     [("Terms of service", "rules for using the service"),
      ("Cookie policy", "explains cookies and trackers on a website"),
      ("Data processing agreement", "a contract between a business and its data processor"),
      "EULA", "Acceptable use policy",
      ("Privacy policy", "tells users what personal data is collected and what rights they have")],
     "Privacy policy")

item(DOCTYPE, False,
     "Product sync — 4 June 2024\n"
     "Attendees: Rui, Sofia, Malik, Jen (notes)\n"
     "1. Launch date: agreed to move GA from 18 to 25 June.\n"
     "2. Pricing page: Sofia to share the final copy by Friday.\n"
     "3. Beta feedback: Malik summarised 42 responses; the top issue is onboarding.\n"
     "Action items: Rui – update release plan; Sofia – pricing copy; Malik – onboarding proposal.",
     "What type of document is this?",
     ["Agenda", "Email", "Memo", "Press release", "Meeting minutes", "Project plan", "Report"],
     "Meeting minutes")

item(DOCTYPE, False,
     "MARIA OLSEN\n"
     "Backend engineer · Copenhagen · maria.olsen@example.com\n"
     "EXPERIENCE\n"
     "2021–present  Senior Engineer, Nordpay — led the migration of the ledger service to Go; cut p99 "
     "latency by 40%\n"
     "2017–2021  Engineer, Fjord Labs — built the ingestion pipeline (Kafka, Postgres)\n"
     "EDUCATION  MSc Computer Science, DTU, 2017\n"
     "SKILLS  Go, Python, PostgreSQL, Kubernetes",
     "What type of document is this?",
     ["Résumé", "Cover letter", "Job posting", "Reference letter", "Performance review", "Offer letter",
      "Biography", "LinkedIn message"],
     "Résumé")

item(DOCTYPE, False,
     "name: ci\n"
     "on:\n"
     "  push:\n"
     "    branches: [main]\n"
     "jobs:\n"
     "  test:\n"
     "    runs-on: ubuntu-latest\n"
     "    steps:\n"
     "      - uses: actions/checkout@v4\n"
     "      - uses: actions/setup-python@v5\n"
     "        with:\n"
     "          python-version: \"3.11\"\n"
     "      - run: pip install -e .[test] && pytest -q",
     "What kind of file is this?",
     ["Dockerfile", "Makefile", "docker-compose.yml", "Kubernetes manifest", "pyproject.toml",
      "Terraform config", "GitHub Actions workflow", "GitLab CI config", "Ansible playbook"],
     "GitHub Actions workflow")

item(DOCTYPE, False,
     "We describe a 67-year-old woman who presented with sudden, painless loss of vision in her right "
     "eye two days after starting a new antihypertensive drug. Fundoscopy showed optic disc swelling; "
     "vision partly recovered after the drug was stopped. To our knowledge, this is the first reported "
     "association between this drug and optic neuropathy.",
     "What type of publication is this abstract from?",
     ["Randomized controlled trial", "Systematic review", "Meta-analysis", "Cohort study", "Editorial",
      "Letter to the editor", "Clinical guideline", "Narrative review", "Cross-sectional survey",
      "Study protocol", "Erratum", "Case report"],
     "Case report")

# =====================================================================================================
# language / region
# =====================================================================================================
LANGUAGE = "language/region"

item(LANGUAGE, False,
     "¿Dónde está la estación de tren más cercana? Llevo veinte minutos buscándola.",
     "Which language is this?",
     ["Español", "Português", "Italiano"],
     "Español")

item(LANGUAGE, True,
     "Vou pegar o ônibus agora e depois a gente se fala pelo celular, beleza?",
     "Which language variety is this?",
     ["Português (Brasil)", "Português (Portugal)", "Galego", "Español"],
     "Português (Brasil)")

item(LANGUAGE, False,
     "I'll ring you from the Tube once I've left the flat — the queue at the chemist took ages, and I "
     "still need to pop into Tesco for some crisps.",
     "Which variety of English is this most likely?",
     ["American English", "Australian English", "Canadian English", "Indian English", "British English"],
     "British English")

item(LANGUAGE, False,
     "Dankjewel voor je hulp! Ik kom morgen even langs op kantoor om de sleutels op te halen.",
     "Which language is this?",
     ["Deutsch", "Afrikaans", "Nederlands", "Dansk", "Svenska", "Norsk"],
     "Nederlands")

item(LANGUAGE, True,
     "Jeg har ikke tid i dag, men vi kan ses i morgen etter jobb. Hva passer for deg?",
     "Which language is this?",
     ["Norsk (bokmål)", "Dansk", "Svenska", "Nynorsk", "Íslenska", "Føroyskt", "Suomi"],
     "Norsk (bokmål)")

item(LANGUAGE, False,
     {"name": "Lucía Fernández", "address": "Calle de Alcalá 45, 3º izq., 28014 Madrid",
      "phone": "+34 915 12 34 56", "vat_id": "ESB12345678"},
     "Which country is this customer record from?",
     ["Mexico", "Argentina", "Colombia", "Chile", "Peru", "Portugal", "United States", "Spain"],
     "Spain")

item(LANGUAGE, True,
     "Привіт! Як справи? Що ти робиш сьогодні ввечері? Може, підемо в кіно?",
     "Which language is this?",
     ["Українська", "Русский", "Беларуская", "Български", "Српски", "Македонски", "Polski", "Čeština",
      "Slovenčina", "Қазақша"],
     "Українська")

item(LANGUAGE, True,
     "Order placed 12/31/2024, 3:45 PM — total $1,234.56",
     "Which locale most likely formatted this string?",
     ["en-GB", "en-CA", "en-AU", "de-DE", "fr-FR", "en-US", "es-MX", "ja-JP", "pt-BR", "en-IN", "fr-CA"],
     "en-US")

# =====================================================================================================
# code review category
# =====================================================================================================
CODE = "code review category"

item(CODE, False,
     "def total(items):\n"
     "    s = 0\n"
     "    for i in range(len(items) + 1):\n"
     "        s += items[i]\n"
     "    return s",
     "What kind of review finding does this code deserve?",
     ["Style nit", "Bug", "Performance"],
     "Bug")

item(CODE, False,
     "def find_user(conn, name):\n"
     "    cur = conn.cursor()\n"
     "    cur.execute(f\"SELECT id, email FROM users WHERE name = '{name}'\")\n"
     "    return cur.fetchone()",
     "What is the main problem with this code?",
     ["Security vulnerability", "Bug", "Style", "Performance"],
     "Security vulnerability")

item(CODE, False,
     "Review comment: \"nit: `tmp2` doesn't say much — maybe `retry_delay_s`, since it's the backoff in "
     "seconds?\"",
     "Which category does this review comment fall into?",
     ["Naming", "Formatting", "Logic error", "Missing tests", "Documentation"],
     "Naming")

item(CODE, True,
     "# runs in 16 gunicorn workers, all sharing one Redis cache\n"
     "def record_hit(cache):\n"
     "    hits = cache.get(\"hits\") or 0\n"
     "    cache.set(\"hits\", hits + 1)",
     "Which defect does this code have?",
     [("Race condition", "the outcome depends on the timing of concurrent operations"),
      ("Deadlock", "threads wait on each other forever"),
      "Memory leak", "Resource leak", "Off-by-one", "Null dereference"],
     "Race condition")

item(CODE, True,
     "def load_all(paths):\n"
     "    configs = []\n"
     "    for path in paths:\n"
     "        f = open(path)\n"
     "        configs.append(json.load(f))\n"
     "    return configs",
     "Which defect does this code have?",
     [("Resource leak", "files, sockets or other handles are never closed"),
      ("Memory leak", "objects stay reachable so memory keeps growing"),
      "Race condition", "Off-by-one", "Null dereference", "Infinite loop", "Deadlock"],
     "Resource leak")

item(CODE, False,
     "def active_emails(users, banned_ids):\n"
     "    # users: ~2M rows; banned_ids: a list of ~500k ints\n"
     "    return [u.email for u in users if u.id not in banned_ids]",
     "Which review category fits the main issue?",
     ["Bug", "Security", "Performance", "Readability", "Error handling", "Concurrency", "API design",
      "Test coverage"],
     "Performance")

item(CODE, False,
     "s3 = boto3.client(\n"
     "    \"s3\",\n"
     "    aws_access_key_id=\"AKIA4EXAMPLE7QX2N3VD\",\n"
     "    aws_secret_access_key=\"q8Yh2+EXAMPLEkT0pRz1vW9mN3bC6dF5gH7jK0lM\",\n"
     ")",
     "Which security finding applies?",
     ["SQL injection", "XSS", "Insecure hashing", "Missing auth check", "Path traversal", "SSRF",
      "Insecure deserialization", "Weak randomness", "Hardcoded secret"],
     "Hardcoded secret")

item(CODE, False,
     "@app.get(\"/download\")\n"
     "@login_required\n"
     "def download():\n"
     "    name = request.args[\"name\"]\n"
     "    return send_file(os.path.join(UPLOAD_DIR, name))",
     "Which vulnerability class does this endpoint have?",
     ["SSRF", "Open redirect", "Command injection", "SQL injection", "XSS", "Insecure deserialization",
      "Path traversal", "Hardcoded secret", "CSRF", "Missing auth check"],
     "Path traversal")

item(CODE, False,
     "def make_reset_token():\n"
     "    # emailed to the user; grants a password reset\n"
     "    return str(random.randint(100000, 999999))",
     "Which security finding applies?",
     [("Insecure hashing", "a weak or fast hash used for passwords or integrity"),
      ("Weak randomness", "predictable values used where security needs unpredictability"),
      ("Hardcoded secret", "credentials or keys written into the source")],
     "Weak randomness")

# =====================================================================================================
# reading comprehension / general knowledge
# =====================================================================================================
READING = "reading/general knowledge"

item(READING, False,
     "Mara missed the 8:05 bus, so she took the 8:20 one. It got her to the office at 8:50, which made "
     "her ten minutes late for her meeting.",
     "When did Mara's meeting start?",
     ["8:40", "8:50", "9:00"],
     "8:40")

item(READING, False,
     "Quiz: Which planet in our solar system has the shortest year (orbital period)?",
     "Pick the correct answer.",
     ["Venus", "Mars", "Earth", "Mercury"],
     "Mercury")

item(READING, False,
     "The warehouse role required a valid forklift licence. Tomás had the most experience and Lena gave "
     "the best interview, but Priya was the only applicant who held a licence. The panel stuck strictly "
     "to the requirements when making the offer.",
     "Who received the offer?",
     ["Tomás", "Lena", "Priya", "No one"],
     "Priya")

item(READING, False,
     "Quiz: What is the chemical symbol for sodium?",
     "Pick the correct answer.",
     ["S", "Na", "So", "Sd", "N"],
     "Na")

item(READING, True,
     "Ana is older than Ben. Ben is older than Caro. Dev is younger than Caro. Eli is older than Ana. "
     "Fay is younger than Ben but older than Caro.",
     "Who is the second youngest?",
     ["Ana", "Ben", "Dev", "Eli", "Caro", "Fay"],
     "Caro")

item(READING, False,
     "Quiz: Which of these animals is a mammal that lays eggs?",
     "Pick the correct answer.",
     ["Penguin", "Kiwi", "Sea turtle", "Bat", "Dolphin", "Komodo dragon", "Platypus"],
     "Platypus")

item(READING, False,
     "I was halfway home when I patted my coat pocket and felt only my keys. The envelope with the "
     "contract — the one I'd promised to post tonight — was still on the bench beside platform 4. I "
     "turned around and ran back to the station.",
     "Why did the narrator go back to the station?",
     ["Lost keys", "Missed the train", "Meet a friend", "Forgot the contract", "Buy a ticket",
      "Rain started", "Left a coat", "Wrong direction", "Use the restroom"],
     "Forgot the contract")

item(READING, False,
     "Quiz: What is the capital city of Australia?",
     "Pick the correct answer.",
     ["Sydney", "Melbourne", "Canberra", "Brisbane", "Perth", "Adelaide", "Hobart", "Darwin",
      "Auckland", "Wellington", "Gold Coast", "Newcastle"],
     "Canberra")

item(READING, False,
     "The night train leaves Vienna at 22:50 and the journey takes 3 hours 25 minutes. Tonight it runs "
     "exactly on time.",
     "At what time does it arrive?",
     ["01:15", "02:15", "01:25", "02:05", "00:15", "01:05", "02:25", "01:35", "00:50", "03:15", "01:45"],
     "02:15")

item(READING, False,
     "Jonah carried the ladder past the garden to the back of the house, but it wouldn't reach the "
     "gutter because it was too short.",
     "What was too short?",
     ["The gutter", "The garden", "The house", "The ladder", "Jonah", "The roof", "The back door",
      "The fence"],
     "The ladder")

item(READING, False,
     "Weigh the flour and salt. Wake the yeast up in a little warm water, then mix everything into a "
     "rough dough and knead it for ten minutes. Leave it to rise for an hour until doubled. Knock it "
     "back and shape it into a loaf, then let it prove again for 45 minutes while the oven heats to "
     "230 °C. Score the top, bake for 35 minutes and cool it on a rack before slicing.",
     "What do you do right after the first rise?",
     ["Bake", "Score the top", "Knead", "Cool on a rack", "Second rise", "Preheat the oven", "Slice",
      "Mix the dough", "Shape the loaf", "Weigh the flour", "First rise", "Activate the yeast"],
     "Shape the loaf")

item(READING, True,
     "The museum is open Tuesday to Sunday, 10:00–18:00, with late opening until 21:00 on Thursdays. It "
     "is closed on Mondays, except on bank holidays, when it opens 12:00–17:00.",
     "Monday 26 August 2024 is a bank holiday. When can you visit the museum that day?",
     ["Closed all day", "10:00–18:00", "12:00–17:00", "10:00–21:00", "12:00–18:00"],
     "12:00–17:00")


# =====================================================================================================
# output
# =====================================================================================================


def records() -> list[dict]:
    out = []
    for number, it in enumerate(ITEMS, start=1):
        out.append({
            "id": f"cb-{number:03d}",
            "domain": it["domain"],
            "hard": it["hard"],
            "request": {
                "model": MODEL,
                "state": it["state"],
                "questions": {"q": {"type": "choice", "instructions": it["instructions"],
                                    "criteria": it["criteria"]}},
            },
            "gold": it["gold"],
        })
    return out


def position_bucket(index: int, n: int) -> str:
    if index == 0:
        return "first"
    if index == n - 1:
        return "last"
    return "middle"


def main() -> int:
    recs = records()
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in recs)
    OUT.write_bytes(text.encode("utf-8"))

    by_n, by_domain, by_bucket, by_index, by_third = Counter(), Counter(), Counter(), Counter(), Counter()
    hard = 0
    for r in recs:
        names = list(r["request"]["questions"]["q"]["criteria"])
        n, index = len(names), names.index(r["gold"])
        by_n[n] += 1
        by_domain[r["domain"]] += 1
        by_bucket[position_bucket(index, n)] += 1
        by_index[index] += 1
        # relative position index/(n-1) in thirds: early [0, 1/3), centre [1/3, 2/3], late (2/3, 1]
        rel = index / (n - 1)
        by_third["early" if rel < 1 / 3 else "late" if rel > 2 / 3 else "centre"] += 1
        hard += r["hard"]

    print(f"wrote {len(recs)} items to {OUT}")
    print("options:", ", ".join(f"{n}={by_n[n]}" for n in sorted(by_n)))
    print("domains:", ", ".join(f"{d}={c}" for d, c in sorted(by_domain.items())))
    print(f"hard: {hard}  not hard: {len(recs) - hard}")
    print("gold position:", ", ".join(f"{b}={by_bucket[b]}" for b in ("first", "middle", "last")))
    print("gold relative position:", ", ".join(f"{b}={by_third[b]}" for b in ("early", "centre", "late")))
    print("gold index (0-based):", ", ".join(f"{i}={by_index[i]}" for i in sorted(by_index)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
