"""Customer support routing: which team, is it billing, is it a bug, how urgent."""

from ._kit import choice, it, noul, score

DOMAIN = "support_routing"
PREFIX = "support"

BILLING = noul(
    "Is this message about billing: charges, invoices, payment methods, refunds or subscription prices?"
)
REFUND = noul(
    "Is the customer asking for a refund, a credit or money back?",
    true="The customer explicitly or clearly wants money returned or credited.",
    false="The customer wants something else (help, information, a fix, a replacement) and is not asking for money back.",
)
BUG = noul(
    "Is the customer reporting a defect: the product behaving differently from how it is designed to work?"
)
CANCEL = noul(
    "Does the customer say they are cancelling, closing their account, or will not renew?"
)
SELF_SERVE = noul(
    "Could this be resolved with a link to a public help article alone, without an agent looking at the "
    "customer's account or taking any action?"
)

TEAM = choice(
    "Which support team should this ticket be routed to?",
    {
        "billing": "charges, invoices, refunds, payment methods, plan prices already being paid",
        "technical_support": "errors, bugs, outages, integrations, setup and configuration problems",
        "account_access": "login, passwords, two-factor authentication, locked or hijacked accounts, changing the account email",
        "shipping": "delivery status, lost or damaged parcels, return shipping labels",
        "sales": "questions from prospects: pricing for a new purchase, quotes, demos, upgrading to a bigger plan",
        "feedback": "feature requests, praise or general opinions where nothing needs fixing",
    },
)
NEXT = choice(
    "What does the customer need from us next?",
    {
        "answer": "information or an explanation only",
        "account_action": "an agent must change something on their account or order",
        "escalation": "a complaint that needs a supervisor or a formal response",
        "no_reply": "nothing: the message closes the conversation or needs no response",
    },
)
AREA = choice(
    "Which product area of the Ledgerly accounting app does this report concern?",
    {
        "invoices": "creating, sending and chasing sales invoices",
        "bills_and_expenses": "supplier bills, receipts, expense claims",
        "payroll": "pay runs, payslips, pensions",
        "bank_feeds": "bank connections and imported transactions",
        "reports": "profit and loss, balance sheet, custom reports",
        "tax_returns": "VAT and other tax returns and submissions",
        "time_tracking": "timesheets and billable hours",
        "mobile_app": "the iOS and Android apps",
        "integrations": "connections to third-party apps",
        "users_and_permissions": "inviting users, roles, access rights",
    },
)
PRIORITY = score(
    "Assign a support priority to this ticket.",
    [
        "P3 low: a question or request with no time pressure",
        "P2 normal: something is impaired for this customer but a workaround exists or the impact is small",
        "P1 high: a core function is broken for the customer or money is being lost right now",
        "P0 critical: an outage, data loss or security incident affecting many users or production",
    ],
)
EFFORT = score(
    "How much agent effort will this ticket take?",
    [
        "a canned reply or help-center link",
        "one lookup or one action on the account",
        "investigation across several systems or several back-and-forth messages",
        "needs an engineering escalation",
    ],
)

LONG_THREAD_CANCEL = """\
From: Priya Raman <priya@raman-design.studio>
To: support@inkwell.app
Subject: Re: Re: Re: Shared brand kits not syncing (ticket #48213)

Hi Tomasz,

Thanks for sticking with this. I tried the steps from your last email this morning and wanted to report back
properly so you have everything in one place.

1. Signed out of the desktop app on both Macs, cleared the cache folder (~/Library/Application Support/Inkwell/cache)
   and signed back in. The brand kit list loaded, but the "Autumn 2024" kit still shows the old logo files and the
   wrong hex code for our accent colour (#D94F2B instead of #C7441F).
2. Opened the same kit in the browser at app.inkwell.app — there it shows the correct, updated colours. So the web
   copy is right and the desktop copy is stale.
3. Asked Jonas (my colleague, on Windows 11) to do the same. His desktop app also shows the stale version. He
   says it has been like that since roughly the 12th.
4. Checked our workspace plan page: we are on Studio (annual), 6 seats, renews on the 3rd of next month.

I have also attached the diagnostic bundle you asked for (inkwell-diag-2024-10-21.zip). Let me know if the upload
didn't come through; our mail server sometimes strips zips.

Best,
Priya

--
Priya Raman | Creative Director
Raman Design Studio · 4th floor, 27 Cotton Exchange, Manchester M3 1DA
+44 161 555 0142 · raman-design.studio
This email and any attachments are confidential and intended solely for the addressee. If you have received it
in error please notify the sender and delete it. Raman Design Studio Ltd is registered in England and Wales,
company no. 10938271. We will never ask you to change bank details by email; please call to confirm any change.

-----Original Message-----
From: Tomasz Wójcik <tomasz@inkwell.app>
Sent: Friday, October 18, 2024 4:12 PM
Subject: Re: Re: Shared brand kits not syncing (ticket #48213)

Hi Priya,

Sorry to hear the refresh didn't do the trick. Could you try a full sign-out and clear the local cache on the
desktop app, then compare what you see on the web? If the web is correct, that narrows it down to the desktop sync
client. A diagnostic bundle (Help > Export diagnostics) would also be great.

We did roll out a new version of the sync service on the 11th, so I have flagged your workspace to our engineers
in case it's related.

Kind regards,
Tomasz
Inkwell Customer Success

-----Original Message-----
From: Priya Raman
Sent: Thursday, October 17, 2024 9:40 AM
Subject: Re: Shared brand kits not syncing (ticket #48213)

Hi again,

Did that — pressed "Refresh kits" three times and restarted. No change. We have a client presentation next week and
the team keeps exporting slides with the old logo, which is embarrassing. Anything else I can try?

Priya

-----Original Message-----
From: Amara Okafor <amara@inkwell.app>
Sent: Wednesday, October 16, 2024 2:03 PM
Subject: Re: Shared brand kits not syncing (ticket #48213)

Hello Priya,

Thanks for reaching out! Usually this is fixed by clicking "Refresh kits" in the Brand panel (the circular arrow
at the top right) and restarting the app. Could you give that a go and let us know?

Warm regards,
Amara

-----Original Message-----
From: Priya Raman
Sent: Wednesday, October 16, 2024 10:27 AM
Subject: Shared brand kits not syncing (ticket #48213)

Hello,

We updated our "Autumn 2024" brand kit last week (new logo lockup, slightly darker accent colour) but the desktop
apps in our studio still show the previous version. New documents created on desktop pick up the old assets.
Is there a way to force a re-sync?

For context, the kit is shared with all six seats and we mostly work on the desktop app because the
browser version is too slow with our larger InDesign-style layouts. We've used Inkwell for about three years
and this is the first time we've had a sync problem like this. I've already checked that every machine is on
the current version (8.3.2) and that nobody has the kit pinned offline.

Thanks,
Priya Raman
Raman Design Studio

-----Original Message-----
From: Priya Raman
Sent: Monday, October 21, 2024 11:55 AM
Subject: one more thing

Tomasz, sorry, adding this separately so it doesn't get lost: our ops manager looked at this thread and has
decided we will not be renewing the Studio plan on the 3rd. We'll move the team to a different tool for
next year. I'd still like the sync problem fixed for the few weeks we have left, because the client deck is due
on Thursday. Could you also confirm what happens to our files once the plan lapses? We need to export everything.

Priya
"""

LONG_TICKET_ROUTING = {
    "ticket_id": "HX-220917",
    "channel": "web_form",
    "customer": {"name": "Declan Moore", "company": "Moore & Hale Joinery", "plan": "Business", "since": "2021-03-14"},
    "subject": "Several things — mostly the export",
    "body": (
        "Hi team, apologies in advance, this is a long one because I've been saving things up.\n\n"
        "First, a bit of praise: the new quote builder is brilliant. My estimator used to spend an hour per kitchen "
        "quote and now it's about fifteen minutes. The way it pulls cabinet sizes straight from the drawing is "
        "exactly what we needed. Whoever designed it, well done.\n\n"
        "Second, a suggestion for later: it would be nice if the colour swatches in the quote PDF could show the "
        "actual RAL code as well as the name. Clients keep ringing to ask which 'Sage' we mean. Not urgent at all.\n\n"
        "Third, I noticed the price of the Business plan went up in the last email you sent out. I assume existing "
        "customers keep the old price until renewal — that was how it worked last year — so no need to reply on "
        "that unless I'm wrong.\n\n"
        "Now the actual problem, which is why I'm writing today. Since Monday, whenever we export a job to the CNC "
        "cutting list (Jobs > Export > CNC CSV), the file comes out with every panel dimension in inches instead of "
        "millimetres, even though the workspace units are set to metric and every drawing shows mm. We checked on "
        "three different jobs and two different computers. The PDF export is fine, only the CSV is wrong. Our CNC "
        "machine reads the numbers as millimetres, so a 600 mm carcass side comes out as a 23.6 mm offcut. We've "
        "wasted two sheets of birch ply already before we spotted it. Right now we are converting every cutting list "
        "by hand in Excel, which is slow and risky.\n\n"
        "Things I've tried: toggled the units setting to imperial and back to metric, logged out and in, cleared "
        "the browser cache, tried Chrome and Edge. Same result every time. I've attached two CSVs (job 1187 and "
        "job 1192) and a screenshot of the workspace settings page.\n\n"
        "We have a big fit-out starting on the 28th with about forty cabinets, so I'd really appreciate it if someone "
        "could look at this soon. Happy to jump on a call if that helps.\n\n"
        "Last thing, completely unrelated: one of my lads, Kieran, left the company, and I'd like to take his login "
        "off the account at some point. I think I can do that myself under Team settings though, so ignore this "
        "unless it's complicated.\n\n"
        "Cheers,\nDeclan"
    ),
    "attachments": ["job-1187-cnc.csv", "job-1192-cnc.csv", "workspace-settings.png"],
    "previous_tickets": [
        {"id": "HX-201455", "subject": "How do I add a second price list?", "status": "solved"},
        {"id": "HX-188210", "subject": "Invoice address change", "status": "solved"},
        {"id": "HX-176004", "subject": "Drawing tool slow with large rooms", "status": "solved"},
        {"id": "HX-169933", "subject": "Can clients sign quotes online?", "status": "solved"},
        {"id": "HX-151870", "subject": "Onboarding call for new estimator", "status": "solved"},
    ],
    "customer_history_summary": (
        "Business plan since March 2021, 7 seats, pays annually by direct debit, no failed payments. Uses quotes, "
        "drawings, job scheduling and the CNC export daily. Previous contacts were how-to questions and one "
        "address change; satisfaction ratings 5/5 on all closed tickets."
    ),
    "internal_notes": [
        "2024-09-30 auto: customer health score 82 (good).",
        "2024-10-02 auto: release 7.14.0 deployed to all Business workspaces (includes exporter refactor).",
        "2024-10-03 auto: 2 similar tickets this week mention 'CNC CSV' (HX-220871, HX-220902), both open.",
        "2024-10-03 auto: sentiment of this ticket: mixed (positive feedback, negative issue).",
    ],
}

LONG_CHAT_PRIORITY = """\
[Live chat transcript — Northwind Hosting — started 02:41 UTC]
[02:41] Visitor (Elena Vasquez, account #NW-55102, plan: Managed VPS x4): hi is anyone there
[02:41] Bot: Hi Elena! I'm the Northwind assistant. What can I help you with today?
[02:42] Visitor: all four of our servers stopped responding about 15 min ago
[02:42] Bot: I'm sorry to hear that. Have you tried restarting your server from the control panel? Here is an article: "How to restart a VPS".
[02:42] Visitor: yes. the control panel shows them as "running" but nothing answers, not ssh, not http, not ping
[02:43] Bot: Thanks. Could you tell me which data centre your servers are in?
[02:43] Visitor: FRA-2 I think. all of them
[02:43] Bot: Let me check our status page for FRA-2... There are no incidents currently reported for FRA-2.
[02:44] Visitor: well something is wrong. this is our online shop, checkout is down, we are losing orders
[02:44] Visitor: we run a flash sale that started at 02:00 UTC, it's the biggest day of our year
[02:44] Bot: I understand this is important. Would you like me to connect you to a human agent?
[02:44] Visitor: YES
[02:45] Bot: Connecting you to the next available agent. Current wait time: about 6 minutes.
[02:51] Agent Kofi: Hi Elena, Kofi here from the night team. I've read the chat above. Give me a moment to look at your servers.
[02:52] Visitor: thank you
[02:54] Agent Kofi: I can see all four instances are up at the hypervisor level and CPU is near idle. Their network interfaces show no traffic since 02:26.
[02:55] Visitor: so what does that mean
[02:55] Agent Kofi: It looks like they've lost network connectivity rather than crashed. Did anyone change firewall rules or the private network recently?
[02:56] Visitor: not that i know of. my colleague Marc set up the sale last week but he only touched the shop config, not the servers
[02:56] Agent Kofi: Understood. I'm also checking whether other customers in FRA-2 are affected.
[02:58] Agent Kofi: I'm seeing a few other reports coming in from FRA-2 in the last twenty minutes. I've paged the network on-call engineer.
[02:58] Visitor: ok. do you have any eta
[02:59] Agent Kofi: Not yet, sorry. I'll stay on this chat with you.
[02:59] Visitor: can you move our servers to another data centre?
[03:00] Agent Kofi: A live migration isn't possible while they have no network, but we could restore your latest snapshots into FRA-1. Your most recent snapshots are from 00:00 UTC today.
[03:01] Visitor: that would lose orders from 00:00 to 02:26. that's a lot of orders. let's wait a bit
[03:01] Agent Kofi: Okay. I'll update you as soon as I hear from the network team.
[03:06] Visitor: any news?
[03:07] Agent Kofi: The network on-call has confirmed a problem with a top-of-rack switch in FRA-2 row C. Your four servers are all in that row. They are working on it.
[03:07] Visitor: great, the one row where all our servers are
[03:08] Agent Kofi: I know, I'm sorry. I'll make a note to talk to you about spreading servers across rows afterwards.
[03:10] Visitor: our CEO is asking me every 2 minutes. I need something to tell him
[03:11] Agent Kofi: You can tell him the cause is identified (a failed network switch on our side, not anything you did), engineers are on it, and we'll post updates on status.northwind.host shortly.
[03:12] Visitor: the status page still says all green btw
[03:12] Agent Kofi: Thanks for flagging — I've asked for an incident to be posted.
[03:15] Visitor: still down. checkout has been dead for 50 minutes now
[03:15] Visitor: please make sure whoever is fixing this knows it's a paying customer in the middle of a sale, we're losing thousands
[03:16] Agent Kofi: I've added that to the incident. I'm also opening a ticket from this chat so nothing is lost if we disconnect.
[Chat converted to ticket #NW-T-99120 at 03:16 UTC]
"""

ITEMS = [
    # ---- billing? --------------------------------------------------------------------------------
    it(BILLING, """
        Hi, I was charged twice for my March subscription — two identical charges of $14.99 on the 3rd,
        both from "STREAMLY*MONTHLY". Can you look into it? My account email is dana.whitfield@fastmail.com.
        """, True),
    it(BILLING, """
        The app keeps crashing when I try to upload a video longer than about two minutes. Shorter clips are
        fine. I'm on a Pixel 7, Android 14, app version 5.2.1. Is this a known issue?
        """, False),
    it(BILLING, {
        "subject": "VAT number missing from invoices",
        "body": "Our accounts team needs our VAT number (GB 284 1192 07) printed on every invoice from now on, "
                "and ideally on the last three as well so we can reclaim the tax. Where do we add it?",
        "customer": {"name": "Harriet Oduya", "company": "Oduya Lettings Ltd", "plan": "Team"},
    }, True),
    it(BILLING, """
        hey, how do i change the name shown on my profile? it still has my maiden name
        """, False),
    it(BILLING, """
        Good morning. Our company card expired at the end of last month and I've just received the new one.
        I'd like to update it before the next renewal goes through on the 14th so the service isn't interrupted.
        Can you tell me where to do that, or do I need to send you the details?
        Regards, Tom Eriksen, Office Manager
        """, True),
    it(BILLING, """
        Your courier left my parcel next to the bins outside the building and it got soaked in the rain.
        Order #DW-88412. The box was falling apart and the cushion cover inside is stained.
        """, False),
    it(BILLING, """
        I'm thinking of upgrading my team from Basic to Pro but I don't understand whether the extra seats are
        prorated if we add people mid-month. Also do you do a discount for charities? We're a registered charity
        in Scotland (SC041877).
        """, True, amb=True),
    # ---- refund? ------------------------------------------------------------------------------------------
    it(REFUND, """
        I cancelled my gym membership on 28 January, I have the confirmation email, but you still took the
        February fee of £39. Please return it.
        """, True),
    it(REFUND, """
        The blender arrived with a cracked jug. I don't want my money back, I just want a replacement jug sent
        out — the motor base is fine and I use it every day. Order 4471-220.
        """, False),
    it(REFUND, """
        Your outage on Tuesday took our booking page down for six hours during our busiest afternoon. Your SLA
        says 99.9% uptime. What are you going to do about it?
        """, True, amb=True),
    it(REFUND, {
        "subject": "Wrong size",
        "body": "Ordered the trail shoes in EU 43 but got 42. Can I swap them for the right size? Happy to send "
                "these back, just need the 43s before my race on the 9th.",
        "order": "RS-1029384",
    }, False),
    it(REFUND, """
        Hello, I bought the annual plan yesterday by mistake — I meant to pick monthly to try it out first.
        I haven't used any of the premium features. Could you reverse it and put me on monthly instead?
        Thank you, Marguerite
        """, True),
    # ---- bug? ----------------------------------------------------------------------------------------
    it(BUG, """
        When I set a recurring task to repeat "every last Friday of the month", it shows up on the first Friday
        of the next month instead. Happened for October and November. Screenshot attached.
        """, True),
    it(BUG, """
        Is there a way to export my notes as Markdown? I can only see PDF and DOCX in the export menu.
        """, False),
    it(BUG, """
        Since the update this morning the "Save" button on the invoice editor does nothing. No error, no spinner,
        the page just sits there. If I reload, the changes are gone. Tried Firefox and Chrome on two machines.
        """, True),
    it(BUG, """
        I forgot my password and the reset email went to my old work address, which I no longer have access to.
        How do I get back into my account?
        """, False),
    it(BUG, {
        "subject": "Search doesn't find older messages",
        "body": "When I search my inbox for 'Henderson' I only get results from the last 90 days, but I know "
                "there are emails from 2022. Is search broken?",
        "customer": {"plan": "Free", "note": "Free plan search is limited to 90 days of history per pricing page"},
    }, False, amb=True),
    it(BUG, """
        The mobile app shows my balance as £1,240.50 but the web banking shows £1,420.50 for the same account at
        the same time. Which one is right? This is making me nervous.
        """, True),
    # ---- cancel? ---------------------------------------------------------------------------------------
    it(CANCEL, """
        Please close my account and delete my data. I've moved to another provider. Account: r.kowalski@o2.pl
        """, True),
    it(CANCEL, """
        I'm going travelling for three months. Can I pause my meal-kit deliveries from June to August and start
        again in September?
        """, False),
    it(CANCEL, """
        Honestly if this sync issue isn't fixed by the end of the month I don't see why we would keep paying for
        this. I've been patient for three weeks now.
        """, False, amb=True),
    it(CANCEL, {
        "subject": "Renewal",
        "body": "Hi, just a heads-up that we won't be renewing our contract when it ends in April. The team has "
                "standardised on a different tool. Could you make sure auto-renew is switched off? Thanks, Ines",
        "customer": {"company": "Brightwater Analytics", "plan": "Enterprise", "renewal_date": "2025-04-30"},
    }, True),
    it(CANCEL, """
        Can I downgrade from Premium to the free tier without losing my saved playlists?
        """, False),
    # ---- self-serve? -------------------------------------------------------------------------------------
    it(SELF_SERVE, """
        What are your customer service opening hours over the Christmas period?
        """, True),
    it(SELF_SERVE, """
        My order #77102 says delivered but nothing arrived and the neighbours haven't got it either.
        """, False),
    it(SELF_SERVE, """
        How do I turn on two-factor authentication? I'd like to use an authenticator app rather than SMS.
        """, True),
    it(SELF_SERVE, """
        I need to change the legal entity on our contract from Fenwick Digital Ltd to Fenwick Group plc after our
        restructure, effective 1 July. The invoices after that date must show the new entity.
        """, False),
    it(CANCEL, LONG_THREAD_CANCEL, True),
    # ---- team routing -----------------------------------------------------------------------------------
    it(TEAM, """
        I can't log in. It says my account is locked after too many attempts, but I only tried twice. I need
        to get in today to download payslips.
        """, "account_access"),
    it(TEAM, """
        Hi! We're a 40-person architecture firm looking at your project management tool. Do you offer annual
        pricing, and could someone give us a demo next week?
        """, "sales"),
    it(TEAM, """
        Parcel tracking has said "held at depot" for 6 days. Tracking number JD014600003827. Can you chase the
        courier?
        """, "shipping"),
    it(TEAM, """
        Webhook deliveries to our endpoint have been failing with a TLS handshake error since yesterday. Our
        certificate is valid (Let's Encrypt, renewed 3 days ago). Nothing changed on our side apart from the
        renewal.
        """, "technical_support"),
    it(TEAM, """
        Just wanted to say the new dark mode is gorgeous. Would love it if you also added a sepia option for
        reading at night!
        """, "feedback"),
    it(TEAM, """
        Why did my invoice go up from $49 to $79 this month? Nobody told us about a price change and we didn't
        add any users.
        """, "billing"),
    it(TEAM, {
        "subject": "Someone changed my email",
        "body": "I got a message saying my account email was changed to some address I don't recognise and now "
                "I can't reset my password. I did not do this!!",
        "customer": {"name": "Luca Bianchi", "plan": "Plus"},
    }, "account_access"),
    it(TEAM, """
        The Zapier integration stopped creating rows in our Google Sheet. The zap history shows "401 Unauthorized"
        from your API on every run since Friday.
        """, "technical_support"),
    it(TEAM, """
        We're currently on the Team plan with 12 seats and we're about to hire another 30 people. At that size is
        there an Enterprise tier with SSO, and what would it cost?
        """, "sales"),
    it(TEAM, """
        I returned the jacket two weeks ago using the prepaid label and the tracking shows you received it on the
        4th, but I still haven't had the £85 back on my card.
        """, "billing", amb=True),
    it(TEAM, """
        Could you let the product team know that the calendar view really needs a week-number column? Lots of
        us in Sweden plan by week numbers. Thanks!
        """, "feedback"),
    it(TEAM, """
        The box arrived but the courier dented one corner and the lamp base inside is cracked. Do I need to send
        photos to you or to the delivery company?
        """, "shipping", amb=True),
    it(TEAM, """
        Our SSO login with Okta stopped working this morning for everyone in the company: after authenticating we
        get bounced back to your login page with "SAML response invalid". We have 200 people who can't get in.
        """, "account_access", amb=True),
    it(TEAM, """
        We're a school district in Ohio evaluating reading software for about 300 classroom licences. Do you
        have education pricing, and can you send a formal quote our purchasing office can put on a PO?
        """, "sales"),
    it(TEAM, """
        Not a complaint really, just an observation: I got three onboarding emails in one day, which felt like a
        lot. Otherwise the app is lovely and I've already recommended it to my sister.
        """, "feedback"),
    it(TEAM, LONG_TICKET_ROUTING, "technical_support"),
    # ---- product area ----
    it(AREA, """
        Our Barclays business account stopped importing transactions on the 3rd. The connection page says
        "re-authorisation needed" but when I click it I get a blank screen.
        """, "bank_feeds"),
    it(AREA, """
        Tried to submit our VAT return for the quarter ending March and got "HMRC rejected the submission:
        INVALID_VRN". Our VAT number hasn't changed. The deadline is next Tuesday.
        """, "tax_returns"),
    it(AREA, """
        I invited our new bookkeeper as "Adviser" but she still can't see the bank reconciliation screen. What role
        does she need?
        """, "users_and_permissions"),
    it(AREA, """
        Staff timesheets for last week show 0 hours for everyone who clocked in from the kiosk tablet, but the
        hours are there if I look at each person's day view.
        """, "time_tracking"),
    it(AREA, """
        When I send an invoice with a 10% early-payment discount, the PDF the customer receives shows the
        discounted total but the "amount due" line still shows the full amount. Customers are paying the wrong
        figure.
        """, "invoices"),
    it(AREA, """
        Receipts I photograph for expense claims upload fine, but the amount and supplier name are no longer read
        automatically — every field comes through blank and I have to type them in.
        """, "bills_and_expenses"),
    it(AREA, """
        This month's pay run calculated employer pension contributions at 3% for everyone, but four of our staff
        are on the enhanced 5% scheme. Payday is Friday.
        """, "payroll"),
    it(AREA, """
        The profit and loss report for Q2 shows £0 for "Cost of sales" even though the account has over £40k of
        transactions in that period. The balance sheet looks right.
        """, "reports"),
    it(AREA, """
        Since yesterday our Shopify orders aren't coming through to Ledgerly as sales any more. The connection
        status in the app marketplace page says "connected", and nothing has changed on the Shopify side.
        """, "integrations"),
    it(AREA, """
        The Android app crashes as soon as I tap the camera icon to snap a receipt. Pixel 6, latest version from the
        Play Store.
        """, "mobile_app", amb=True),
    # ---- what next ---------------------------------------------------------------------------------------
    it(NEXT, """
        Thanks Sam, that fixed it! The reports are loading again. Have a good weekend.
        """, "no_reply"),
    it(NEXT, """
        Can you tell me whether your servers for EU customers are located inside the EU? Our DPO is asking.
        """, "answer"),
    it(NEXT, """
        Please change the delivery address on order 55-1092 to 14 Orchard Lane, Bristol BS3 4RT — it hasn't
        shipped yet according to the tracking page.
        """, "account_action"),
    it(NEXT, """
        This is the fourth time I've written about the same faulty router. Each agent tells me something different
        and nothing gets done. I want to speak to a manager and I want this put in writing.
        """, "escalation"),
    it(NEXT, """
        I'm going to need you to add two more seats to our workspace and send the updated invoice to
        finance@kettle-coffee.co.
        """, "account_action"),
    it(NEXT, """
        ok
        """, "no_reply", amb=True),
    it(NEXT, """
        Your agent on the phone yesterday told me the refund "would probably" be processed within 10 days. Is
        that 10 working days or calendar days?
        """, "answer"),
    # ---- priority ----------------------------------------------------------------------------------------
    it(PRIORITY, """
        Hi, when you get a chance, could you tell me if there's a keyboard shortcut for strikethrough?
        """, 0),
    it(PRIORITY, """
        Our whole production API is returning 503 for all customers since 14:05 UTC. Status page shows green.
        This is an outage for us. Account: acme-logistics (Enterprise).
        """, 3),
    it(PRIORITY, """
        The PDF export puts page numbers in the wrong corner. Not a big deal, I've been printing without them,
        but thought you should know.
        """, 1),
    it(PRIORITY, """
        Payments have stopped going through on our store since about an hour ago. Every card is declined at
        checkout with "processor unavailable". Other stores we know on your platform seem fine. We're losing
        sales.
        """, 2),
    it(PRIORITY, """
        I think someone has accessed our admin account — there are three new admin users I didn't create and all
        our customer records were exported last night at 3am. Please help urgently.
        """, 3),
    it(PRIORITY, """
        The mobile app logs me out every couple of days and I have to sign in again. Annoying but I can live with
        it.
        """, 1),
    it(PRIORITY, """
        Can I get a copy of last year's invoices for our auditors? They need them by the end of next month.
        """, 0),
    it(PRIORITY, """
        I'm the only person at our clinic who can't open the scheduling screen — it spins forever. My colleagues
        can use it on their PCs, so for now I'm borrowing theirs, but it's slowing me down.
        """, 1),
    it(PRIORITY, """
        Our nightly payroll sync to your platform failed and 140 employees are due to be paid tomorrow morning.
        The sync log says "batch rejected: schema mismatch". We need this fixed today.
        """, 2, amb=True),
    it(PRIORITY, LONG_CHAT_PRIORITY, 3),
    # ---- effort ------------------------------------------------------------------------------------------
    it(EFFORT, """
        Where can I download your mobile app for iPad?
        """, 0),
    it(EFFORT, """
        Please resend the invoice for October (INV-2024-1093) — our finance inbox deleted it by accident.
        """, 1),
    it(EFFORT, """
        Since your update last Thursday, our CSV imports randomly drop between 5 and 20 rows, always different ones.
        The same file imported twice gives different results. We've checked encoding and line endings.
        """, 3),
    it(EFFORT, """
        We were billed for 14 seats but only have 11 active users. Some of the people who left might still be
        pending invitations, not sure. Also our invoice from August shows a different tax rate than September.
        """, 2),
    it(EFFORT, """
        Is there a student discount?
        """, 0),
    it(EFFORT, """
        My order shows as delivered to the wrong city. I phoned the courier, who says the label you printed had
        the wrong postcode, and you told me on chat it was the courier's fault. Can someone sort out who is right
        and get me my order?
        """, 2, amb=True),
    # ---- medium-length messages --------------------------------------------------------------------------
    it(TEAM, """
        Hello,

        I'm writing about order #BX-55731 (a Linden oak bedside table and a matching lamp), which I placed on
        2 March. The confirmation email said delivery within 5-7 working days. Here is what the tracking page has
        shown since then:

          4 Mar  Parcel collected from warehouse (Daventry)
          5 Mar  Arrived at hub (Birmingham)
          5 Mar  Out for delivery
          5 Mar  Delivery attempted - customer not in (card left)
          6 Mar  Arrived at hub (Birmingham)
          ...and nothing since.

        Nobody came on the 5th: I work from home and was in all day, and there was no card. I've phoned the
        courier twice and they say they can only talk to the sender. It's now been nine days with no movement.

        I'm not asking for a refund at this stage, I'd just like someone to find out where the parcel is and get it
        delivered, or send a replacement if it's lost. I'm in every weekday.

        Thanks,
        Ruth Adebayo
        14 Ashdown Close, Leamington Spa CV32 6HW
        """, "shipping"),
    it(PRIORITY, {
        "subject": "Recurring invoices show the wrong due date in the customer portal",
        "body": (
            "Hi, we've noticed that since last week the customer portal shows the due date for recurring invoices "
            "as the invoice date, so every recurring invoice looks overdue the day it's sent. The PDF and the email "
            "both show the right due date (30 days), and payments are being allocated correctly; it's only the "
            "portal view that's wrong. Two customers have emailed us confused, and we've replied to explain. "
            "One-off invoices look fine. We've got about 60 customers on recurring billing. Could you take a look "
            "when you can? In the meantime we've added a line to the invoice email telling customers to go by the "
            "PDF. Screenshot of the portal and the matching PDF attached."
        ),
        "customer": {"name": "Owen Pritchard", "company": "Pritchard & Daughters Landscaping", "plan": "Standard"},
        "attachments": ["portal.png", "INV-2291.pdf"],
    }, 1),
]
