"""Data-subject and data-handling requests judged against a written privacy and retention policy."""

from ._kit import choice, it, noul, score

DOMAIN = "privacy_requests"
PREFIX = "privacy"

# ---- policy texts ------------------------------------------------------------------------------------------

RETENTION_POLICY = (
    "Retention schedule. Job applicant records: 6 months after the hiring decision was sent to the applicant. "
    "CCTV footage: 31 days after recording. Customer support chats: 24 months after the customer's last contact. "
    "Invoices and payment records: 7 years after the end of the financial year they belong to (our financial "
    "year runs from 1 April to 31 March). Marketing list entries: 24 months after the person's last email open "
    "or click, or at once when they unsubscribe. Former-employee HR files: 6 years after the leaving date. A "
    "period of months or years ends on the same calendar date that many months or years later (6 months after "
    "10 March is 10 September); a period of days ends that many days later. A record must be deleted once "
    "today's date is later than the end of its period. A record under a legal hold must not be deleted while "
    "the hold is in force."
)

# ---- questions ---------------------------------------------------------------------------------------------

DSAR_OVERDUE = noul(
    "Privacy policy §4, subject access requests. The response is due 30 calendar days after the request is "
    "received: the day after receipt is day 1 and the deadline is the end of day 30 (a request received on "
    "10 June is due by the end of 10 July). If we asked the requester to verify their identity, the clock does "
    "not run until the verification arrives: the 30 days are then counted from the day the verification was "
    "received. If the request is complex and the requester was told about an extension on or before the "
    "original deadline, the deadline becomes day 90 instead of day 30. A request is overdue when today is later "
    "than its deadline and no response has been sent.\n\nGiven today's date, is this request overdue?"
)

ID_OK = noul(
    "Identity verification rules for data-subject requests. (a) A request made while logged in to the account, "
    "or sent from the email address registered on the account, counts as verified for access, correction and "
    "marketing opt-out requests. (b) Erasure requests, and requests for a copy of payment or location data, "
    "also need confirmation with a one-time code sent to the registered phone number. (c) A request from any "
    "other email address, or by post, counts as verified only with a copy of photo ID whose name and date of "
    "birth match the account, plus a proof of address dated within the last 3 months. (d) A request made on "
    "someone else's behalf also needs that person's signed authority, unless the requester is a parent of a "
    "child under 13 who is named on the requester's own account.\n\n"
    "Has the identity verification this request needs been completed, so that we can act on it now?",
    true="Every check the rules require for this request is done.",
    false="At least one required check is missing or failed.",
)

DELETE_NOW = noul(f"{RETENTION_POLICY}\n\nGiven today's date, must this record be deleted now?")

CHILD_OK = noul(
    "Children's data rules for the StudyNest learning app. Users under 13 may use the app only with verified "
    "parental consent; their data may never be used for marketing or personalised advertising, and may not be "
    "shared with any third party other than our own processors (hosting, email delivery, customer support "
    "tools). Users aged 13 to 15 may consent to the learning features themselves, need verified parental "
    "consent before receiving marketing emails, and are never shown personalised advertising. Users aged 16 "
    "and over consent for themselves to everything. Age is the user's age on the date of the processing. "
    "Verified parental consent means a consent form signed by a parent plus a card check or ID check of that "
    "parent; a ticked box alone is not verified.\n\nIs the processing described allowed under these rules?"
)

TEAM = choice(
    "Privacy request routing. privacy_ops: customers' requests for a copy of their data, data portability, and "
    "erasure. support: simple account corrections a customer cannot make themselves (name spelling, date of "
    "birth, changing the login email). marketing_ops: marketing unsubscribes and objections to marketing or to "
    "profiling for advertising. legal: requests from police, courts, regulators, or lawyers acting for someone, "
    "and any request that threatens legal action or a complaint to the regulator. security: reports of a "
    "possible data breach or of personal data exposed where it should not be. people_team: any request from a "
    "current or former employee or a job applicant about their own data, whatever the request type. If more "
    "than one team fits, the first in this order wins: legal, security, people_team, then the others. If the "
    "message is not a request or report about personal data, answer no_action.\n\n"
    "Which team should handle this message?",
    {
        "privacy_ops": None,
        "support": None,
        "marketing_ops": None,
        "legal": None,
        "security": None,
        "people_team": None,
        "no_action": "not a request or report about personal data",
    },
)

ERASURE = choice(
    "Erasure request procedure. Work through these steps in order and answer with the first that applies. "
    "(0) If the message does not ask us to delete the person's data or close and delete their account, answer "
    "not_erasure. (1) If the requester's identity is not yet verified (the request did not come from the "
    "registered email address or a logged-in session), answer verify_first. (2) If the account has an open "
    "dispute or chargeback, or a legal hold, answer refuse_for_now. (3) If the account has an unpaid balance "
    "above £0, answer settle_balance_first. (4) If the customer has any invoice or payment record dated within "
    "the last 7 years (later than the same calendar date 7 years before today), answer erase_except_financial "
    "(delete everything else and keep those records). (5) Otherwise answer erase_all.\n\n"
    "What is the outcome for this request?",
    {
        "not_erasure": "step 0",
        "verify_first": "step 1",
        "refuse_for_now": "step 2",
        "settle_balance_first": "step 3",
        "erase_except_financial": "step 4",
        "erase_all": "step 5",
    },
)

BREACH = choice(
    "Personal data breach procedure. (a) Answer log_only if no personal data was involved; or if the data was "
    "encrypted and the key was not exposed; or if the data went to a trusted recipient (a bank, another of our "
    "customers who confirms deletion in writing, or a regulated professional such as a doctor or solicitor) who "
    "deleted it before anyone else could see it. (b) Otherwise, if we were acting as a processor for a client "
    "(the client is the controller of the data), answer tell_controller. (c) Otherwise, if the data includes "
    "passwords, bank or card details, health data, government ID numbers, or data about children, or more than "
    "1,000 people are affected, answer notify_regulator_and_individuals. (d) Otherwise answer notify_regulator."
    "\n\nWhat does the procedure require for this incident?",
    {
        "log_only": "record it in the breach log; no notification",
        "notify_regulator": "report to the regulator within 72 hours",
        "notify_regulator_and_individuals": "report to the regulator and tell the affected people",
        "notify_individuals_only": "tell the affected people but not the regulator",
        "report_to_police": "report the incident to the police as a crime",
        "tell_controller": "tell the client whose data it is, without undue delay",
    },
)

BASIS = choice(
    "Lawful basis rules in our privacy policy. For a processing activity, take the first basis in this order "
    "that fits. legal_obligation: a law requires us to do it (keeping tax records, obeying a court order, "
    "anti-money-laundering checks). contract: it is necessary to deliver a service the person asked for, or to "
    "take steps they asked for before signing up. legitimate_interests: fraud prevention, network and "
    "information security, or internal analytics on aggregated or pseudonymised data, and only if a "
    "legitimate-interests assessment (LIA) for the activity is on file. consent: marketing emails and texts, "
    "non-essential cookies, personalised advertising, and any use of health data for purposes other than the "
    "person's care. none: nothing above fits, or the activity would need legitimate interests but no LIA is on "
    "file; we may not do it.\n\nWhich basis applies?",
    {
        "legal_obligation": None,
        "contract": None,
        "legitimate_interests": None,
        "consent": None,
        "none": "no basis; the activity may not go ahead",
    },
)

DEADLINE = score(
    "Deadline tracking for data-subject requests. Deadlines are counted in calendar days from the day after "
    "receipt (day 1), and end at the end of the last day: access and portability requests 30 days; erasure and "
    "correction requests 21 days; marketing opt-outs 10 days. Days left = deadline date minus today's date.\n\n"
    "Where does this open request stand today?",
    [
        "more than 7 days left",
        "1 to 7 days left",
        "due today",
        "overdue by 1 to 10 days",
        "overdue by more than 10 days",
    ],
)

VERIFY_LEVEL = score(
    "Identity check level required before we act on a data-subject request. Rule A: if the request is only a "
    "marketing opt-out, the level is 0 whatever the channel (this overrides the other rules). Otherwise take the "
    "highest level that any of these rules calls for. Rule B: made inside the logged-in app or website: level 1. "
    "Rule C: sent by email from the address registered on the account: level 2. Rule D: asks to erase the "
    "account, or for a copy of payment or location data: level 3. Rule E: sent from an email address that is "
    "not on the account, by post or by phone, or made by a third party on someone else's behalf: level 4.\n\n"
    "Which level does this request need?",
    [
        "level 0: no check",
        "level 1: the logged-in session is enough",
        "level 2: confirmation link sent to the registered email",
        "level 3: confirmation link plus one-time code to the registered phone",
        "level 4: photo ID and proof of address (plus signed authority for a third party)",
    ],
)

BREACH_RISK = score(
    "Breach risk rating. Count the people affected and check which kinds of personal data were exposed. "
    "Sensitive data means health data, bank or card numbers, government ID numbers, passwords, or any data about "
    "children. Pick the level whose rule matches.",
    [
        "0: no personal data, or all of it encrypted with the key not exposed",
        "1: only names, job titles and/or work contact details, for fewer than 100 people",
        "2: personal contact details (home address, personal email or phone), or any non-sensitive data of 100 to "
        "999 people; no sensitive data",
        "3: sensitive data of fewer than 1,000 people, or non-sensitive personal data of 1,000 or more people",
        "4: sensitive data of 1,000 or more people",
    ],
)

DELETE_COUNT = score(
    f"{RETENTION_POLICY}\n\nHow many of the records listed must be deleted now?",
    ["none", "one", "two", "three or more"],
)

# ---- items -------------------------------------------------------------------------------------------------

ITEMS = [
    # ---- subject access deadline -----------------------------------------------------------------------------
    it(DSAR_OVERDUE, """
        Privacy case tracker — exported 5 April 2024 (today)
        Case: DSAR-2024-0311 · Type: subject access · Requester: Mr Ewan Blackwood (existing customer; the request came
        from his registered email, so no ID check was needed)
        Received: 4 March 2024
        Extension: none
        Response sent: no
        Latest note (2 April): "Waiting on the export from the billing system; CRM and call notes already collected.
        Chased billing again today."
        """, True),
    it(DSAR_OVERDUE, """
        Today is 12 June 2024. Queue view, privacy mailbox:
        #4471 — Subject access request from Mr Hadley Owusu, received 13 May 2024 via the web form (logged in,
        no ID check needed). Data pulled from CRM and support tool; redaction of third-party names in progress.
        Response: not yet sent.
        """, False),
    it(DSAR_OVERDUE, """
        Case DSAR-2024-0208 — subject access request from a former customer, Ms Leah Corrigan.
        10 Feb 2024: request received by email from an address not on her old account.
        11 Feb 2024: we asked her for photo ID and proof of address.
        20 Feb 2024: ID and proof of address received; identity confirmed.
        Today is 18 March 2024. Data collection is complete and the response is being redacted; nothing has been sent
        yet. No extension has been notified.
        """, False),
    it(DSAR_OVERDUE, """
        Internal chat, 7 June 2024:
        Maya: can you check DSAR #5520? Request came in on 1 May. We asked her for ID on 2 May and she sent her
        passport scan on 6 May. Legal are still reviewing the emails we found about her, so nothing has gone out
        yet. No extension was discussed with her.
        Tom: ok, I'll look after lunch.
        """, True),
    it(DSAR_OVERDUE, """
        From: dpo@harcourt-telecom.co.uk
        Date: 20 March 2024
        Subject: Status — DSAR-2024-0041 (Mr Vikram Solanki)

        Team, status on the big one. Mr Solanki's access request came in on 15 January and covers nine systems plus six
        years of call recordings, so we marked it complex. We wrote to him on 5 February explaining that we are
        extending the deadline and why. Transcription of the call recordings is about 60% done. Nothing has been sent
        to him yet. Please keep going and flag any blockers to me.
        Thanks, Aoife
        """, False),
    it(DSAR_OVERDUE, """
        Today: 1 March 2024.
        Request DSAR-2024-0044 (access), received 15 January 2024 from a former customer. Marked complex on
        19 February because it covers call recordings. We emailed the requester about the extension on
        20 February 2024. Response not yet sent.
        """, True),
    it(DSAR_OVERDUE, """
        Closed case summary, DSAR-2024-0377 (today: 10 May 2024)
        Requester: Mr Jonas Eriksen, existing customer. Access request received 25 March 2024 through the logged-in
        privacy centre. The data pack (account data, orders, support tickets, marketing history) was sent by secure
        link on 30 April 2024, six days after the deadline, with an apology for the delay. Mr Eriksen downloaded it on
        1 May. No complaint has been received. Case awaiting quality review.
        """, False),
    it(DSAR_OVERDUE, """
        From: privacy-team@finchley-energy.co.uk
        To: dpo@finchley-energy.co.uk
        Date: Mon 29 July 2024
        Subject: DSAR from Ms Roisin Keane — status
        Hi Anil, quick update. Ms Keane's access request arrived by email from her registered address on Friday
        28 June. We acknowledged it the same day. The smart-meter data extract is still with the data team, so
        we haven't sent her anything yet. Shall I chase?
        """, True),
    it(DSAR_OVERDUE, """
        Sunday 3 March 2024 — weekend on-call note from the privacy inbox:
        "Noticed DSAR-2024-0119 still open in the tracker. It's a plain access request from Mrs Okafor, received
        1 February 2024 from her registered email, so no ID check was needed. No extension was sent and the response
        hasn't gone out — the draft is sitting in the shared folder waiting for sign-off. Flagging for Monday."
        """, True),
    it(DSAR_OVERDUE, """
        DSAR #3390 — request received 1 April 2024 from an email address not on any account. We asked for photo
        ID and proof of address on 2 April and sent a reminder on 30 April. Nothing received from the requester
        so far. Today is 1 June 2024; no response sent.
        """, False),
    it(DSAR_OVERDUE, """
        Post-room log and case note
        Letter from Mr Albert Finch, dated 9 August 2024, asking for "copies of all my personal information". Stamped as
        received in the post room on 15 August 2024 and scanned to the privacy team the same day. His signature and
        address match the account; the team did not ask him for any further ID.
        Case note, 12 September 2024 (today): response pack being assembled; not sent yet. No extension.
        """, False),
    it(DSAR_OVERDUE, """
        Today is 8 November 2024. Ticket DSAR-2024-0931: access request received 7 October 2024 through the
        logged-in help centre. Acknowledgement email sent 8 October ("we'll reply within one month"). The full
        response is drafted but has not been sent. No extension.
        """, True),
    # ---- identity verification ------------------------------------------------------------------------------
    it(ID_OK, """
        From: l.andersson@fastmail.com
        To: privacy@nordlight-travel.com
        Subject: Copy of my data
        Hello, under data protection law I'd like a copy of all the personal data you hold about me, including my
        bookings, any notes from calls with your agents and what you use for marketing. I've been a customer since
        2019. Thanks, Linnea Andersson
        [System check: sender address matches the email registered on account #881230.]
        """, True),
    it(ID_OK, """
        Ticket #PR-7731 — erasure request
        The customer wrote from the email address registered on the account: "Delete my account and all my data, I'm
        moving to another provider." Per procedure we sent a one-time code by text to the phone number on the account
        two days ago. The customer hasn't entered the code or replied yet. Agent note: "She sounded sure in the email —
        can we just go ahead?"
        """, False),
    it(ID_OK, """
        Ticket #PR-7802 — erasure request
        "Please erase my account, I no longer need it." — sent from the registered email address on 3 September 2024.
        A one-time code was sent to the registered mobile on 3 September; the customer entered it correctly on the
        confirmation page the same evening. No other requests on the account.
        """, True),
    it(ID_OK, """
        Request log — case ID-5531
        3 October 2024: email from hamid.rezaei.work@outlook.com asking for "a copy of everything you hold about me".
        This address is not the one on the account (the account uses h.rezaei@gmail.com, which he says he can no longer
        access since his old phone was stolen).
        3 October 2024: we replied asking for photo ID and a proof of address dated within the last 3 months.
        8 October 2024: he sent a scan of his passport — name Hamid Rezaei, date of birth 14/02/1987; both match the
        account exactly.
        10 October 2024 (today): he sent a council tax bill dated 28 August 2024 showing the address on the account.
        He is asking only for a copy of his data (no erasure, payment or location data).
        """, True),
    it(ID_OK, """
        Verification review, 14 October 2024 (today)
        Request: copy of personal data, received by email from an address not on the account.
        Documents supplied: driving licence — name "Marcus J. Holloway" matches the account; date of birth on the
        licence 12/07/1988, while the account shows 21/07/1988. Bank statement dated 30 September 2024 showing the
        account's address. The requester says the date of birth on his account "must have been typed wrong when I
        signed up".
        """, False),
    it(ID_OK, """
        Letter received by post, 3 June 2024:
        "Dear Data Protection Officer, please send me all information you hold on me. I enclose a photocopy of
        my passport. My account number is 5521-0098. Yours sincerely, Mrs Beryl Ashworth"
        Enclosures: passport photocopy (name and date of birth match the account). Nothing else enclosed.
        """, False),
    it(ID_OK, """
        From: s.mensah@mensahlegal.co.uk
        Date: 19 August 2024
        Subject: Subject access request on behalf of our client, Ms Abena Owusu

        Dear Data Protection Officer,
        We act for Ms Abena Owusu and request a copy of all personal data you hold about her. Enclosed: her signed form
        of authority for us to make this request; a copy of her passport (name and date of birth as on her account with
        you); and a council tax bill dated 2 July 2024 showing her current address.
        Yours faithfully, Samuel Mensah, Mensah Legal LLP
        """, True),
    it(ID_OK, """
        In-app chat (user logged in to family account FAM-20931):
        "Hi, I'm the account holder. My son Oscar is 10 and he's listed on our family account. Could you send me
        a copy of the data you hold about him, including his activity history? Thanks, Daniel Brooks"
        """, True),
    it(ID_OK, """
        From: kevin.mcbride@btinternet.com (registered email on the account)
        Hello, this is Kevin's wife Angela writing. Kevin is working abroad and asked me to sort this out for
        him. Please send us a copy of all the data you have on Kevin's account. Many thanks, Angela
        """, False),
    it(ID_OK, """
        In-app form (customer logged in), 11:42: "My date of birth shows as 1991 on my profile but it should be 1981. I
        can't edit it myself — the field is greyed out. Could you correct it please? Your age check keeps blocking me
        from the over-40s discount." Request type selected: correction.
        """, True),
    it(ID_OK, """
        Logged-in support chat, 14:02
        Customer: Can I get a download of all the location history you've stored from my phone? I want to see where the
        app thinks I've been over the last year, because the "places you visited" feature shows places I've never been.
        Agent: Of course, I'll raise that for you now.
        Agent note: the customer is logged in to the app; no one-time code has been sent to the registered phone.
        """, False),
    it(ID_OK, """
        Verification checklist, 7 October 2024 (today)
        Request: copy of all personal data, sent from an email address that is not on the account.
        Photo ID: passport — name and date of birth match the account. ✔
        Proof of address: bank statement dated 3 May 2024 showing the account address. ✔ (address matches)
        Agent comment: "All documents match, ready to release?"
        """, False),
    # ---- retention: delete now? -----------------------------------------------------------------------------
    it(DELETE_NOW, """
        Recruitment system — retention review queue, run on 1 August 2024 (today)
        Candidate: R. Qureshi · Vacancy: Junior Data Analyst (REQ-2231)
        Stage reached: second interview
        Outcome: unsuccessful; rejection email sent 12 January 2024
        Talent pool consent: not given
        Legal hold: none
        Recruiter note: "Strong candidate, might be worth keeping in mind for the next analyst role."
        """, True),
    it(DELETE_NOW, """
        Today is 15 September 2024. Record: application form, CV and interview notes for Ms Tamsin Ford, Warehouse
        Supervisor role (REQ-2290). We emailed her the rejection on 20 March 2024 after the final interview. No
        complaint or claim has been made and there is no legal hold. The hiring manager has asked HR to clear out "all
        the old applicant files from the spring" this week.
        """, False),
    it(DELETE_NOW, """
        Security office log, 3 June 2024 (today)
        Footage: loading bay camera 3, recording of 1 May 2024, 00:00–23:59.
        Still on the recorder because automatic overwriting was switched off during a firmware update in May.
        Requests for this footage: none. Legal hold: none. Incidents recorded on that date: none.
        """, True),
    it(DELETE_NOW, """
        Store manager's message, 10 June 2024: "Hi, the shop entrance camera footage from 10 May 2024 is still on the
        recorder. Nothing happened that day as far as I know, no police or insurance requests and no hold on it. The
        disk is getting full — do we have to wipe that day's footage today, or can it wait?"
        """, False),
    it(DELETE_NOW, """
        Today: 2 August 2024. CCTV clip from the car park, recorded 4 May 2024, showing a collision between two
        customers' cars. The police asked us on 6 May to preserve it for an investigation, and the legal team put
        it on hold; the hold is still open.
        """, False),
    it(DELETE_NOW, """
        Data clean-up script — dry run, 2 May 2024 (today)
        Customer #44102: 14 support chat transcripts; most recent contact 3 May 2022 (a question about a late
        delivery). Account closed in June 2022. No legal hold. No open complaints.
        Proposed action by the script: DELETE transcripts. Please confirm whether the action is correct before the live
        run.
        """, False),
    it(DELETE_NOW, """
        Finance archive review, 15 March 2024 (today). Box 17 contains sales invoice INV-17-0212, dated 14 February
        2017, for a customer who closed their account in 2019. No legal hold. The archivist notes: "This invoice is over
        seven years old now, so I assume it can go in the shredding batch." The other documents in the box are dated
        April 2017 onwards.
        """, False),
    it(DELETE_NOW, """
        Records team ticket, 2 April 2024 (today): payment record for order 16-99310, a card payment taken on
        30 November 2016 from a customer who still has an active account. No legal hold; no dispute on the order. The
        customer's newer orders (2021 onwards) are not part of this ticket.
        """, True),
    it(DELETE_NOW, """
        Marketing platform event, 22 October 2024 09:14: subscriber j.ferreira@protonmail.com clicked "unsubscribe from
        all marketing" at the bottom of the "Autumn offers" email. The entry is still on the "Autumn offers" list
        because the weekly suppression job has not run yet. The subscriber last opened an email on 22 October 2024.
        Today is 23 October 2024.
        """, True),
    it(DELETE_NOW, """
        List hygiene report, 30 September 2024 (today)
        Subscriber: tom.h@example.net · List: "Monthly newsletter"
        Last open or click: 5 January 2023 · Unsubscribed: no · Bounces: 0
        Emails sent since the last click: 20
        Segment: "Dormant — no engagement for 12+ months" (the CRM team has proposed deleting this whole segment)
        """, False),
    it(DELETE_NOW, """
        HR archive review, 1 July 2024 (today)
        File: Gareth Simms, former sales executive. Leaving date: 30 June 2018 (resigned).
        Contents: contract, payroll history, appraisals, exit interview.
        Legal hold: none. Reference requests on file: one, answered in 2019.
        """, True),
    it(DELETE_NOW, """
        Today is 10 June 2024. HR file for former employee Ms Nadia Petrova, who left on 1 September 2017. The
        file was put on legal hold in 2022 because of her tribunal claim; the claim was settled and legal lifted
        the hold on 14 May 2024.
        """, True),
    # ---- children's data ------------------------------------------------------------------------------------
    it(CHILD_OK, """
        Sign-up record #SN-208812
        Username: skyler_writes · Date of birth: 3 March 2010 · Signed up: 12 September 2024
        Consent given by the user at sign-up: "I agree to use StudyNest quizzes and flashcards" ✔
        Marketing emails: not selected · Personalised ads: not selected · Parental consent: none requested
        Processing in question: storing her quiz scores and flashcard decks so the learning features work.
        """, True),
    it(CHILD_OK, """
        Sign-up record #SN-209140
        Stated age: 12 · Signed up: 2 October 2024 to use the homework planner
        Parental consent step: parent's email address entered and the box "I am the parent and I agree" ticked. No card
        check or ID check of the parent was completed (the user skipped that step).
        Processing in question: creating the account and storing the child's homework tasks and reminders.
        """, False),
    it(CHILD_OK, """
        Account review, StudyNest
        User: aged 10, account created by her mother in January 2024.
        Parental consent: signed consent form from the mother, verified with a £0.00 card check on the mother's card.
        Processing in question: the reading-practice feature, which stores the child's reading level, the books she has
        finished and her progress on our servers (run by our hosting processor).
        """, True),
    it(CHILD_OK, """
        Campaign brief — "Summer Maths Bootcamp" (draft v2, owner: Growth team)

        Goal: fill the 400 remaining places on the online Summer Maths Bootcamp before 1 July.
        Offer: 20% off the bootcamp for the first two weeks, with the code SUMMER20.
        Audience: all users aged 9 to 12 whose parents completed verified consent (signed form plus ID check) when the
        account was created. Approximately 18,000 users.
        Channel: an email sent to the child's own StudyNest inbox, plus an in-app banner on the child's home screen.
        Timing: Tuesday 11 June, 16:00 (after school), with a reminder on 18 June.
        Personalisation: "Hi {first_name}, ready to become a maths champion this summer?"
        Success measure: bootcamp sign-ups from the email and the banner.

        Note from the Growth lead: "Parents already gave verified consent for these kids, so we're covered. Legal signed
        off a similar campaign for the 13–15s last year."
        """, False),
    it(CHILD_OK, """
        Marketing list import check, 4 November 2024
        User: date of birth 22 April 2009.
        Processing in question: adding her to the monthly marketing newsletter with offers on premium courses.
        Consent on file: the user ticked "send me offers" at sign-up; a signed consent form from her father plus a check
        of his passport, received 30 October 2024, covering marketing emails.
        """, True),
    it(CHILD_OK, """
        Ad-ops ticket AO-5521: enable interest-based (personalised) ads in the free tier for user #550124, aged 15. Her
        mother has completed verified parental consent (signed form plus card check) for all features, including
        advertising, and the user has also opted in herself. Revenue team note: "Teens in the free tier are our fastest
        growing segment — let's monetise them properly."
        """, False),
    it(CHILD_OK, """
        Settings change log, 15 August 2024
        User #481207 · date of birth 30 June 2008
        Change: "Personalised ads" switched from off to on by the user in Settings → Privacy.
        Tier: free (ad-supported). Parental consent on file: none.
        Processing to start today: showing personalised advertising based on the subjects the user studies.
        """, True),
    it(CHILD_OK, """
        Settings change log, 19 November 2024
        User #503318 · date of birth 20 November 2008
        Change: "Personalised ads" switched from off to on by the user in Settings → Privacy.
        Tier: free (ad-supported). Parental consent on file: none.
        Processing to start today: showing personalised advertising based on the subjects the user studies.
        """, False),
    it(CHILD_OK, """
        Partnership proposal from BrightPath Analytics (an advertising measurement company, not one of our
        processors): they want a weekly export of usage data for our 11-year-old users — pseudonymous IDs,
        subjects studied, time of day — to build audience segments. All these users have verified parental
        consent.
        """, False),
    it(CHILD_OK, """
        Vendor review note: we are moving storage of saved essays to CloudVault, our contracted hosting processor,
        under a data processing agreement. This includes essays written by users under 13, such as a 9-year-old user
        whose account has verified parental consent (signed form plus an ID check of her father). CloudVault may not
        use the data for its own purposes.
        """, True),
    it(CHILD_OK, """
        Support note: Ellie (13) asked in the app to get our weekly emails about new courses and discount codes. She
        ticked "I agree to marketing emails" herself. No parent is linked to her account and no parental consent has
        been given. Can we add her to the marketing list this week, in time for the half-term offer?
        """, False),
    it(CHILD_OK, """
        Marketing list check: user #477019, aged 17, studying for A-levels. At sign-up she ticked "Send me emails about
        offers and new courses". No parent is linked to the account. Processing in question: including her in this
        month's email about exam-prep bundles.
        """, True),
    # ---- routing --------------------------------------------------------------------------------------------
    it(TEAM, """
        Subject: My data
        Hi there, I've been a customer for about four years. Could you send me a copy of all the personal data you hold
        about me, including my order history, my saved addresses and any notes your agents have written about me? I'd
        prefer it as a download if possible. Thanks, Priyanka Menon
        """, "privacy_ops"),
    it(TEAM, """
        Subject: Too many emails!!
        Please stop sending me your promotional emails and offers. I've had three this week alone and I never signed up
        for them as far as I remember. I still want my order confirmations and delivery updates though, so please don't
        close my account. — G. Whitaker
        """, "marketing_ops"),
    it(TEAM, """
        Hello, my name on my account is spelled "Siobhan" but it should be "Siobhán" with the accent. The profile page
        won't let me change it — it says special characters aren't allowed. It's a small thing but it's my name and it
        appears on every parcel label. Can someone fix it for me? Thanks, Siobhán Ní Bhriain
        """, "support"),
    it(TEAM, {
        "from": "disclosure.unit@met.police.uk",
        "subject": "Request for disclosure — Crime ref 01/998231/24",
        "body": "Please provide the IP addresses and login times for the account registered to the email "
                "j.doyle88@gmail.com between 1 and 14 March 2024, under Schedule 2 Part 1 Paragraph 2 of the "
                "Data Protection Act 2018.",
    }, "legal"),
    it(TEAM, """
        Hi, not sure who to tell — I was searching for your product and found a Google result linking to a
        spreadsheet on your website called customers_export_march.xlsx. It has hundreds of names, emails and
        phone numbers in it. Anyone can open it. Thought you should know.
        """, "security"),
    it(TEAM, """
        Dear HR / data protection team, I worked at your Reading office as a payroll assistant until last
        December. Please could you send me a copy of my personnel file, including my appraisals and any notes
        about my disciplinary hearing. Regards, Stuart Mellor
        """, "people_team"),
    it(TEAM, """
        Hi, I don't use your app any more since I switched phones. Please close my account and delete everything you
        have about me — photos, messages, the lot. I don't need a copy of anything. My login email is
        c.oduya@gmail.com. Thanks.
        """, "privacy_ops"),
    it(TEAM, """
        Hi, what time does your Glasgow store open on Sundays? And is there parking nearby, or is it easier to get the
        subway? I'm hoping to pick up a click-and-collect order this weekend. Thanks! — Morven
        """, "no_action"),
    it(TEAM, """
        This is my THIRD request to have my data deleted. I first asked on 2 September and again on 16 September and
        have had nothing but automated replies. If it isn't done within 7 days I will be reporting you to the
        Information Commissioner's Office and speaking to my solicitor about compensation. Account:
        marco.bellini@libero.it
        """, "legal"),
    it(TEAM, """
        Hello, I applied for the Customer Success Manager position in August and was interviewed twice. Could
        you tell me what data you hold about my application — CV, interview scores, any reference notes — and
        how long you'll keep it? Thank you, Femi Adesanya
        """, "people_team"),
    it(TEAM, """
        Hello, I'm fine with you keeping my account and sending me receipts, but I object to you using my browsing
        history on your site to build an advertising profile and show me targeted ads, both on your site and on social
        media. Please stop doing that and confirm when it's done. — A. Nakamura
        """, "marketing_ops"),
    it(TEAM, """
        From: Jess Whitlock (Customer Care, internal)
        To: #cc-team-leads
        Time: 11:52

        Hi all — I think I made a mistake this morning and I'm not sure who I should tell. I was replying to a complaint
        from a customer about a late refund, and I meant to attach the PDF of her refund confirmation. Instead I
        attached the CSV I'd exported for the weekly refunds review, which has about 40 other customers' names, home
        addresses and order values in it. I only noticed when I went back to the sent folder.

        I've emailed the customer asking her to delete the attachment but she hasn't replied yet. I haven't told anyone
        else. Also — unrelated — can someone remind me how I request a copy of my own training records from HR? I need
        them for my appraisal next week.

        Sorry!! What should I do?
        Jess
        """, "security"),
    it(TEAM, """
        Hi, I'm a journalist at the Evening Courier writing a piece on how high-street retailers changed their privacy
        policies and cookie banners this year. Could someone from your press office give me a comment on why your new
        cookie banner no longer has a "reject all" button on the first screen? My deadline is Friday at noon.
        """, "no_action"),
    # ---- erasure procedure -------------------------------------------------------------------------------------
    it(ERASURE, """
        Erasure case ER-5120 — checks completed 10 September 2024 (today)
        Request: "Please delete my account and all my data." Received from the registered email address.
        Disputes or chargebacks: none · Legal hold: none
        Balance: £0.00
        Invoices on the account: 3, the most recent dated 22 March 2015 (the customer has not bought anything since).
        """, "erase_all"),
    it(ERASURE, """
        Erasure case ER-5124 — checks completed 10 September 2024 (today)
        Request made in the logged-in account settings: "Close my account and erase my personal information."
        Disputes or chargebacks: none · Legal hold: none
        Balance: £0.00 (last subscription payment cleared)
        Invoices on the account: 41 monthly subscription invoices, the most recent dated 4 November 2023.
        """, "erase_except_financial"),
    it(ERASURE, """
        From: darren.k.1979@yahoo.co.uk
        Subject: delete me
        Delete everything you've got on me. My account is under dkeane@keanebuilders.co.uk but I don't use that email
        any more since the business closed. I haven't ordered anything for years and I don't owe you anything. Just get
        it done please. Darren Keane
        """, "verify_first"),
    it(ERASURE, {
        "today": "2024-07-01",
        "request": "Erase my account and data.",
        "channel": "email from registered address",
        "open_dispute_or_chargeback": True,
        "dispute_detail": "Card chargeback opened 2024-06-20 for order 77120, still open",
        "legal_hold": False,
        "unpaid_balance": 0.00,
        "last_invoice_date": "2024-06-02",
    }, "refuse_for_now"),
    it(ERASURE, """
        Logged-in help centre request, 14 May 2024: "I want my account deleted, I'm done with this service. Please
        confirm when it's gone." Account check: no disputes or chargebacks, no legal hold. Balance outstanding: £12.50
        (the April subscription payment failed when the customer's card expired). Last invoice: 2 April 2024.
        """, "settle_balance_first"),
    it(ERASURE, """
        Sent from the registered email address: "Please remove me from your newsletter list, I don't want any more
        offers or 'we miss you' emails. I'll keep my account because I still use the app now and then. Thanks."
        """, "not_erasure"),
    it(ERASURE, """
        Erasure case ER-4807, 20 May 2024 (today)
        Request: "Delete all my personal data", sent from an email address that is not on any account; the sender says
        the account is under his work email.
        Account found by name and postcode: open card chargeback on order 55190 (raised 2 May 2024). No legal hold.
        Balance £0.00.
        """, "verify_first"),
    it(ERASURE, """
        Today: 3 October 2024. Erasure request made from a logged-in session: "Delete my account, I've had enough of
        you." Account notes: legal hold placed on 12 August 2024 because of litigation about a faulty e-bike battery
        the customer bought; unpaid balance £89.00; last invoice 1 August 2024. No chargeback.
        """, "refuse_for_now"),
    it(ERASURE, """
        Erasure case ER-5002 — checks completed 10 June 2024 (today)
        Request: "Please erase my account." Received from the registered email address.
        Disputes or chargebacks: none · Legal hold: none · Balance: £0.00
        Invoices on the account: 2, dated 14 March 2016 and 9 June 2017. No purchases since.
        """, "erase_all"),
    it(ERASURE, """
        Logged-in chat, 10:31: "Hi, I've moved house. Can you update my address to 14 Cairn Road, Aberdeen AB10 6PL?
        The profile form keeps rejecting the postcode, it says 'invalid format'. I've got an order coming next week so
        I'd like it sorted today if possible. Thanks, Fraser"
        """, "not_erasure"),
    it(ERASURE, """
        Erasure case ER-5390 — checks completed 25 November 2024 (today)
        Request made in the logged-in account settings: "I want you to delete my account and everything linked to it."
        Disputes or chargebacks: none · Legal hold: none · Balance: £0.00
        Invoices on the account: 6, the most recent dated 14 February 2021.
        """, "erase_except_financial"),
    it(ERASURE, """
        From: p.harrington@fastmail.co.uk (the email address registered on the account)
        Date: 2 February 2024
        Subject: Please delete my data

        Hello,

        I was a customer of yours years ago — I bought a couple of garden tools and a greenhouse heater online around
        2015–2016 — but I haven't bought anything from you since 2016 and I keep getting your catalogue emails. I'd like
        you to delete my account and all the personal data you hold on me, please, not just take me off the mailing
        list. I don't want a copy of anything.

        Thanks,
        Pauline Harrington

        ---
        Agent check (2 February 2024): no open disputes or chargebacks; no legal hold. The account shows £49.00 overdue
        from an order in March 2016 whose payment was never completed (the heater was delivered). Last invoice on the
        account: 11 March 2016.
        """, "settle_balance_first"),
    # ---- breach procedure --------------------------------------------------------------------------------------
    it(BREACH, """
        Incident IR-2024-031: a sales manager's laptop was stolen from his car on Tuesday evening. The disk is
        encrypted with BitLocker; the recovery key is held only in our key vault and was not with the laptop.
        The device held CRM exports for about 2,000 customers. Police informed, crime number issued.
        """, "log_only"),
    it(BREACH, {
        "incident": "IR-2024-044",
        "what_happened": "Unencrypted laptop stolen from an employee's home during a burglary",
        "data": "Spreadsheet of 300 customers' names and home addresses",
        "our_role": "controller",
        "recovered": False,
    }, "notify_regulator"),
    it(BREACH, """
        Incident IR-2024-052: an agent emailed a refund report to the wrong customer. The attachment listed
        40 customers' names with their full card numbers and expiry dates. The recipient has not replied to our
        requests to delete it. We are the controller.
        """, "notify_regulator_and_individuals"),
    it(BREACH, {
        "incident": "IR-2024-058",
        "what_happened": "Invoice for customer A emailed to customer B by mistake",
        "data": "Customer A's name, address and order items",
        "recipient_response": "Customer B replied within an hour confirming in writing that they deleted the "
                              "email without forwarding it",
        "our_role": "controller",
    }, "log_only"),
    it(BREACH, """
        INCIDENT REPORT IR-2024-067 — draft for the breach panel
        Reported by: Platform engineering · Date: 14 May 2024 · Our role: controller (these are our own forum users)

        Summary
        During a routine cloud-configuration review on 13 May, an engineer found that a test copy of the community forum
        database had been left reachable from the internet without a password. The copy was created on 10 May to
        reproduce a search bug and was meant to be deleted the same day.

        Data involved
        The exposed table held 2,500 forum users' usernames, email addresses, sign-up dates and post counts. Password
        hashes had been removed from the test copy. No payment data, no private messages and no dates of birth were in
        it. All of the users are adults (the forum requires users to be 18 or over).

        Access
        Access logs show the table was downloaded in full by three unknown IP addresses on 11 and 12 May.

        Containment
        Public access removed at 16:20 on 13 May; the test copy has been deleted. A configuration rule now blocks public
        access to test databases.
        """, "notify_regulator_and_individuals"),
    it(BREACH, {
        "incident": "IR-2024-071",
        "what_happened": "Payslips for one client's staff were sent to the wrong client's HR inbox by our "
                         "payroll bureau service",
        "data": "Names, salaries and National Insurance numbers of 85 employees of Holbrook Joinery Ltd",
        "our_role": "processor (Holbrook Joinery Ltd is the controller)",
    }, "tell_controller"),
    it(BREACH, """
        Incident IR-2024-080: a Grafana dashboard showing server CPU, memory and request-rate metrics was
        accidentally made public for a day. The dashboards contain hostnames and service names only — no user
        or customer data of any kind.
        """, "log_only"),
    it(BREACH, {
        "incident": "IR-2024-088",
        "what_happened": "Attacker exploited an SQL injection flaw in a legacy loyalty site",
        "data": "Emails and plain-text passwords of 150 loyalty members",
        "our_role": "controller",
    }, "notify_regulator_and_individuals"),
    it(BREACH, """
        Incident IR-2024-093 (our holiday football club, where we are the controller): a coach posted the
        registration sheet for the under-10s group — 30 children's names, dates of birth and parents' phone
        numbers — into the wrong parents' WhatsApp group with 120 members. It was deleted after 2 hours.
        """, "notify_regulator_and_individuals"),
    it(BREACH, {
        "incident": "IR-2024-101",
        "what_happened": "HR sent the staff phone list to an external catering supplier instead of the internal "
                         "all-staff mailbox",
        "data": "600 employees' names, job titles and work mobile numbers",
        "recipient_response": "No reply to two requests to delete",
        "our_role": "controller",
    }, "notify_regulator"),
    it(BREACH, """
        Incident IR-2024-106: our email-delivery platform, which sends newsletters on behalf of our retail
        clients, exposed one client's subscriber list (about 4,000 names and email addresses) through a bug in
        an unsubscribe page. The client, Larchwood Home Ltd, owns the list and decides how it is used.
        """, "tell_controller"),
    it(BREACH, {
        "incident": "IR-2024-112",
        "what_happened": "A caching bug showed other customers' order confirmation pages for 2 hours",
        "data": "Names, delivery addresses and items ordered; no payment details",
        "people_affected": 20,
        "our_role": "controller",
    }, "notify_regulator"),
    # ---- lawful basis ----------------------------------------------------------------------------------------
    it(BASIS, """
        Process description from the records of processing (checkout team): when a customer places an order, we take
        the delivery address and phone number they enter at checkout and pass them to our courier so that the parcel
        they ordered can be delivered, and so that the driver can call if there is a problem finding the address.
        """, "contract"),
    it(BASIS, """
        Finance team request for a records-of-processing entry: keep copies of all sales invoices, including customer
        names, billing addresses and VAT details, for 7 years after the end of the financial year. Reason given: tax law
        requires businesses to keep these records for inspection by HMRC.
        """, "legal_obligation"),
    it(BASIS, """
        Proposal from the growth team: email all customers who bought a tent in the last 12 months with our spring
        camping offers and a 15% discount code, plus a follow-up text message to those who don't open the email. The
        team says "they're existing customers, so we can just send it".
        """, "consent"),
    it(BASIS, """
        Risk team proposal: score each checkout for fraud risk using the device fingerprint, IP address, delivery
        address and the customer's order history, and hold high-risk orders for manual review. A legitimate-interests
        assessment for checkout fraud scoring was completed and signed off by the DPO in March and is on file.
        """, "legitimate_interests"),
    it(BASIS, """
        Risk team request: start scoring every new account sign-up for fraud using the email domain and IP reputation,
        and block sign-ups that score above 80. Note from the DPO: no legitimate-interests assessment has been written
        for this yet; the team hopes to do one "later in the quarter".
        """, "none"),
    it(BASIS, """
        Commercial proposal: sell our customers' names and email addresses to a data broker, DataHarbour Ltd, for £0.05
        per record, so that they can resell them to other companies. The sales director points out that we would add a
        line about "trusted partners" to the privacy notice.
        """, "none"),
    it(BASIS, """
        Onboarding team: before opening an account for a new business customer, check the company's directors and
        beneficial owners against sanctions and politically exposed person (PEP) lists, and keep the results on file.
        Compliance confirms the anti-money-laundering regulations require these checks for every business customer.
        """, "legal_obligation"),
    it(BASIS, """
        Web team ticket: add a third-party advertising pixel to the product pages so that visitors who looked at a
        product can be retargeted with our ads on social media later. The pixel sets a cookie in the visitor's browser
        and shares page views with the social media platform. It is not needed for the site to work.
        """, "consent"),
    it(BASIS, """
        Product analytics proposal: a monthly internal dashboard of feature usage, built from pseudonymised user IDs and
        aggregated by week, so the product team can see which features are used. No individual-level reports leave the
        analytics team. An LIA for product analytics on pseudonymised data is on file (approved June 2024).
        """, "legitimate_interests"),
    it(BASIS, """
        Partnership idea from the wellness app team: use members' step counts, resting heart rate and sleep data to pick
        which partner insurance offers to show them in the app, with the insurer paying us a fee for each policy sold.
        The data would not be used for the members' care.
        """, "consent"),
    it(BASIS, """
        Engineering note: when a user clicks "Forgot password" on the login page and enters their email address, the
        system looks up the account and sends a password-reset link to that address so the user can get back into the
        account they signed up for. Nothing is sent unless the user asks for it.
        """, "contract"),
    it(BASIS, """
        Security team: keep firewall and VPN logs (source IP addresses, usernames, timestamps) for 90 days to detect and
        investigate intrusions, and feed them into the security monitoring tool. An LIA covering this was signed off in
        January. No law specifically requires us to keep these logs.
        """, "legitimate_interests"),
    # ---- deadline status ----------------------------------------------------------------------------------------
    it(DEADLINE, """
        Privacy queue, 10 September 2024 (today)
        #DR-6610 · Access request · Received 2 September 2024 · Requester: Ms Imogen Blake · Status: open (data
        collection started; CRM export done, support tickets pending)
        """, 0),
    it(DEADLINE, """
        Privacy queue, 10 September 2024 (today)
        #DR-6612 · Marketing opt-out (email and SMS) · Received 2 September 2024 · Requester: Mr Kofi Boateng · Status:
        open — the email platform has been updated but the SMS platform has not.
        """, 1),
    it(DEADLINE, """
        Erasure request from Mrs Gwen Talbot, received 20 August 2024 by email. Still open — waiting on the
        warehouse system to purge her loyalty-card history. Today is 10 September 2024.
        """, 2),
    it(DEADLINE, """
        Escalation email, 5 August 2024: "Hi all, the access request from Mr Tobias Lindgren is still open. It came in
        on 1 July 2024. We're stuck waiting for the export from the legacy CRM, which the vendor keeps promising 'next
        week'. Can someone senior push them?"
        """, 3),
    it(DEADLINE, """
        Today is 15 July 2024. Open item: correction request from Mr Idris Bello (his date of birth is wrong on
        the policy record), received 3 June 2024. It was assigned to a colleague who then went on leave.
        """, 4),
    it(DEADLINE, """
        Ticket DR-7034 (today: 10 November 2024)
        Type: data portability — CSV export of the customer's playlists and listening history
        Received: 14 October 2024 via the logged-in privacy centre
        Status: open. Engineering has built the export; QA is checking the file format.
        """, 1),
    it(DEADLINE, """
        Marketing opt-out received by post on 1 November 2024 ("please take me off all your mailing lists").
        Today is 25 November 2024 and the opt-out has still not been applied — the letter sat in the post room.
        """, 4),
    it(DEADLINE, """
        Weekend on-call note, Saturday 2 March 2024 (today): the erasure request from Mr Neil Garside, received
        10 February 2024, is still open — the warehouse system needs a manual purge that only one engineer can run.
        Everything else about him has already been deleted.
        """, 2),
    it(DEADLINE, """
        Correction request (wrong surname after marriage), received 27 December 2024 via the web form from Mrs Sarah
        Okwu, formerly Sarah Allen. Today is 5 January 2025. The team has asked for a copy of the marriage certificate
        and is waiting for it; the request is still open.
        """, 0),
    it(DEADLINE, """
        Monthly privacy report, figures as at 20 April 2024 (today)
        Open access requests: 1 — from Mrs Delphine Aubert, received 15 March 2024. Cause of delay: the scanned paper
        files from the old branch office are still being searched.
        """, 3),
    it(DEADLINE, """
        Opt-out request received through the preference centre on 20 May 2024 from a long-standing customer. The sync to
        the email platform failed with a timeout error, so he is still receiving promotional emails, and the request is
        still open. Today is 31 May 2024.
        """, 3),
    # ---- verification level -------------------------------------------------------------------------------
    it(VERIFY_LEVEL, """
        Contact centre call notes, 14:20: the caller gave her name as Carol Pinnock and the postcode on the account.
        "Hi, I just want to stop getting your marketing texts and emails, I get far too many." Nothing else requested;
        she declined to go through security questions and said she didn't need anything else.
        """, 0),
    it(VERIFY_LEVEL, """
        Privacy centre request, submitted inside the mobile app by a logged-in user at 19:05: "Download a copy of my
        profile and order history." Request type selected: access. The user has not asked for payment or location data.
        """, 1),
    it(VERIFY_LEVEL, """
        From: rajesh.iyer@gmail.com (this is the address registered on the account)
        Subject: Data access request
        Hello, please send me a copy of the personal information you hold about me — account details, order history and
        anything your customer service team has noted. Regards, Rajesh Iyer
        """, 2),
    it(VERIFY_LEVEL, """
        Account settings → "Delete my account permanently" button pressed by a logged-in user on 8 July 2024. Free-text
        reason given: "Not using it any more." The account has no open orders.
        """, 3),
    it(VERIFY_LEVEL, """
        From the registered email address on account 7710423: "Could you send me an export of all the GPS location
        points your app has recorded from my phone over the last year? I'm trying to work out my mileage for a tax
        claim." Nothing else requested.
        """, 3),
    it(VERIFY_LEVEL, """
        Letter, received 4 March 2024: "Dear Sirs, I request a copy of all records you hold about me under data
        protection law, including recordings of my telephone calls. Account number 30-44871. Please reply to my home
        address above. Yours faithfully, Douglas Pettifer"
        """, 4),
    it(VERIFY_LEVEL, """
        From: m.obrien@eircom.net (the address registered on the account)
        "Hello, this is Maura, Declan's wife. Declan is in hospital at the moment and asked me to get a copy of all the
        data on his account so we can check some old orders. I'm using his email because I have the password. Thanks."
        """, 4),
    it(VERIFY_LEVEL, """
        From: new.me.2024@outlook.com (not on any account)
        "I want my old account deleted. It was under my maiden name, Laura Hession, and my old email, which I can't
        access any more. I don't want anything from you, just delete it all please."
        """, 4),
    it(VERIFY_LEVEL, """
        Web account, logged in: message sent through "Help with my profile" — "Please correct my postal address on my
        profile; the form won't accept my new postcode (it's a new-build estate). New address: 3 Heron Way, Ely
        CB7 4XR." Request type: correction.
        """, 1),
    it(VERIFY_LEVEL, """
        From: unknown.sender.4410@gmail.com (not the address on the account)
        "Unsubscribe me from your newsletters please, I keep getting them at my old address, which forwards here. That's
        all I want — I don't need anything else."
        """, 0),
    it(VERIFY_LEVEL, """
        From the email address registered on the account: "Hi, please could you fix the spelling of my first name? It's
        Bronwen, not Bronwyn. It's been wrong since I signed up and it's on all my order confirmations. Diolch, Bronwen
        Hughes"
        """, 2),
    # ---- breach risk ------------------------------------------------------------------------------------------
    it(BREACH_RISK, """
        Incident report: a contractor lost a USB stick on the train home on 9 July. It contained scans of 900 customer
        contracts. The stick is hardware-encrypted (AES-256) and locks itself after ten wrong PIN attempts; the PIN was
        never written down or shared with anyone else. The contractor reported the loss within an hour.
        """, 0),
    it(BREACH_RISK, """
        Incident report: an email to our catering supplier about a trade event was accidentally cc'd to an external
        mailing list with about 300 members. It contained the names, job titles and work email addresses of the 25
        people attending the event. No other data was included.
        """, 1),
    it(BREACH_RISK, """
        Our courier partner's label printer fault printed the wrong labels for one van on 3 June: 40 customers' names
        and home addresses were attached to other customers' parcels. The parcels were delivered before the fault was
        noticed. No phone numbers or order details were printed on the labels.
        """, 2),
    it(BREACH_RISK, """
        Incident report: the slide deck from our customer webinar, published on our website for a week, included a
        screenshot of the attendee list — names, company names and business email addresses of 350 attendees. The deck
        has now been replaced. No other data was shown.
        """, 2),
    it(BREACH_RISK, """
        A payment-page error on 14 November displayed 12 customers' full card numbers and expiry dates to other shoppers
        for about ten minutes before the page was taken down. The card security codes were not shown. Engineering has
        identified the faulty cache rule.
        """, 3),
    it(BREACH_RISK, """
        Incident report: the October newsletter was sent with all 2,300 recipients in the To: field instead of Bcc:.
        Every recipient could see the others' personal email addresses (mostly Gmail, Outlook and iCloud). The email
        contained no other personal data. A recall was attempted but most copies had already been delivered.
        """, 3),
    it(BREACH_RISK, """
        A ransomware group published a file taken from our clinic booking system: 4,800 patients' names, dates of birth
        and the reason for their appointment (diagnoses such as diabetes, depression and pregnancy). The file appeared
        on the group's leak site on 2 August and has been downloaded by unknown parties.
        """, 4),
    it(BREACH_RISK, """
        Incident report: an engineer uploaded load-balancer logs to a public bug tracker while asking for help with a
        library. The logs contain request counts, latency percentiles and internal service names only — the IP address
        and user ID fields had been stripped by the logging configuration. The post was deleted after two days.
        """, 0),
    it(BREACH_RISK, """
        The internal org chart, showing 80 employees' names and job titles, was accidentally published on the public
        careers page for a day. It contained no contact details, photos or other data. The web team removed it as soon
        as a candidate pointed it out.
        """, 1),
    it(BREACH_RISK, """
        Incident report: a booking export for a travel agency client was left in a public cloud storage bucket for
        three weeks. It contains the names and passport numbers of 1,500 travellers, with their travel dates. Access
        logs show it was downloaded twice from unknown IP addresses.
        """, 4),
    it(BREACH_RISK, """
        A summer-camp registration spreadsheet with 60 children's first names, surnames and age groups was emailed to
        the wrong parent on 29 July. It contained no addresses, medical notes or parents' details. The parent has not
        replied to our request to delete it.
        """, 3),
    # ---- retention: how many records to delete ------------------------------------------------------------------
    it(DELETE_COUNT, {
        "today": "2024-10-01",
        "records": [
            {"type": "CCTV footage", "recorded": "2024-08-15", "legal_hold": False},
            {"type": "Job applicant file", "decision_sent": "2024-05-20", "legal_hold": False},
            {"type": "Support chat transcripts", "last_contact": "2023-02-01", "legal_hold": False},
        ],
    }, 1),
    it(DELETE_COUNT, """
        From: records.manager@coastline-leisure.co.uk
        To: data-protection@coastline-leisure.co.uk
        Date: 15 June 2024
        Subject: Retention sweep — records flagged this week

        Hi,

        Here's this week's batch from the retention tool. None of these records is under a legal hold; I checked the
        hold register this morning.

        1. Sales invoice INV-16-0410, dated 10 April 2016, for a corporate event booking at the Bayview hotel.
        2. Sales invoice INV-17-0601, dated 1 June 2017, for the same customer's summer party.
        3. HR file for a former lifeguard, Mr Callum Reece, who left the company on 31 January 2018.
        4. CCTV footage from the Bayview pool area recorded on 1 June 2024.

        The tool has marked all four as "review", which isn't very helpful. Could you confirm which of these we are
        required to delete now, so I can raise the disposal tickets before the end of the month?

        Thanks,
        Gemma
        """, 2),
    it(DELETE_COUNT, {
        "today": "2024-03-01",
        "records": [
            {"type": "Marketing list entry", "unsubscribed": "2024-02-28"},
            {"type": "Marketing list entry", "last_open_or_click": "2022-02-20", "unsubscribed": None},
            {"type": "Marketing list entry", "last_open_or_click": "2022-03-05", "unsubscribed": None},
            {"type": "Job applicant file", "decision_sent": "2023-08-15", "legal_hold": False},
        ],
    }, 3),
    it(DELETE_COUNT, """
        Today: 10 December 2024. Three records checked:
        - CCTV clip, recorded 15 November 2024, no hold
        - Support chats for a customer last in touch on 10 January 2023, no hold
        - HR file for an employee who left on 31 March 2019, no hold
        """, 0),
    it(DELETE_COUNT, {
        "today": "2024-09-01",
        "records": [
            {"type": "CCTV footage", "recorded": "2024-07-20", "legal_hold": True,
             "hold_reason": "Insurance claim for a slip in the car park"},
            {"type": "Job applicant file", "decision_sent": "2024-02-10", "legal_hold": False},
            {"type": "Support chat transcripts", "last_contact": "2022-08-31", "legal_hold": False},
        ],
    }, 2),
    it(DELETE_COUNT, """
        Retention review list — today is 20 May 2024:
        (a) applicant file — rejection sent 20 November 2023
        (b) CCTV footage — recorded 19 April 2024
        (c) invoice — dated 31 March 2017
        None is on legal hold.
        """, 1),
    it(DELETE_COUNT, {
        "today": "2025-01-15",
        "records": [
            {"type": "Former-employee HR file", "leaving_date": "2018-12-31", "legal_hold": False},
            {"type": "Former-employee HR file", "leaving_date": "2019-01-20", "legal_hold": False},
            {"type": "Marketing list entry", "unsubscribed": "2025-01-14"},
            {"type": "CCTV footage", "recorded": "2024-12-10", "legal_hold": False},
            {"type": "Support chat transcripts", "last_contact": "2022-12-01", "legal_hold": False},
        ],
    }, 3),
    it(DELETE_COUNT, """
        Retention check, 1 July 2024:
        - Payment records from 2015 — under legal hold for an ongoing HMRC enquiry
        - Applicant file — decision sent 2 April 2024
        - CCTV — recorded 28 June 2024
        """, 0),
    it(DELETE_COUNT, {
        "today": "2024-11-30",
        "records": [
            {"type": "CCTV footage", "recorded": "2024-10-25", "legal_hold": False},
            {"type": "Job applicant file", "decision_sent": "2024-05-29", "legal_hold": False},
            {"type": "Support chat transcripts", "last_contact": "2022-12-05", "legal_hold": False},
        ],
    }, 2),
]
