"""Policy compliance: does this text, listing, claim or message break a stated policy, which rule, how badly."""

from ._kit import choice, it, noul, score

DOMAIN = "policy_compliance"
PREFIX = "policy"

AD_POLICY = (
    "Advertising policy for health and wellness products: (1) ads must not claim that a product prevents, treats "
    "or cures a disease or medical condition; (2) ads must not promise specific results such as an amount of "
    "weight lost in a time period; (3) ads must not show before-and-after comparisons; (4) ads must not be aimed "
    "at people under 18."
)
AD = noul(f"{AD_POLICY}\n\nDoes this ad break the policy?")

EXPENSE_POLICY = (
    "Travel expense policy: meals are reimbursed up to £45 per person per day while travelling; alcohol is never "
    "reimbursed; itemised receipts are required for any expense over £25; flights under 6 hours must be economy "
    "class; taxis are allowed only when public transport is unavailable or after 21:00; hotel stays up to £160 per "
    "night in London and £120 elsewhere in the UK."
)
EXPENSE = noul(
    f"{EXPENSE_POLICY}\n\nDoes this expense claim comply with the policy?",
    true="Every line is within the policy.",
    false="At least one line breaks the policy.",
)

DATA_POLICY = (
    "Data handling rule: customer personal data (names together with contact details, account numbers, card "
    "numbers, dates of birth, health information or government ID numbers) must not be posted in shared chat "
    "channels, sent to personal email addresses, or pasted into external tools that are not on the approved list "
    "(approved: Salesforce, Zendesk, Google Workspace)."
)
DATA = noul(f"{DATA_POLICY}\n\nDoes this message break the data handling rule?")

SOCIAL_POLICY = (
    "Employee social media policy: employees may talk about their work in general terms, but must not disclose "
    "unreleased products or features, financial results before they are published, customer names without "
    "permission, or internal security details; and must make clear that opinions are their own when discussing "
    "the company."
)
SOCIAL = noul(f"{SOCIAL_POLICY}\n\nDoes this post break the social media policy?")

LISTING = choice(
    "Marketplace listing policy. Which prohibited category, if any, does this listing fall into?",
    {
        "allowed": "nothing prohibited",
        "weapons": "firearms, ammunition, gun parts, knives over 3 inches sold for combat, tasers",
        "prescription_drugs": "prescription-only medicines or controlled substances",
        "counterfeit": "fakes or replicas of branded goods",
        "live_animals": "pets or livestock",
        "recalled_or_unsafe": "recalled products or items that fail safety standards",
        "personal_data": "accounts, logins, personal data or documents",
    },
)
AD_RULE = choice(
    f"{AD_POLICY}\n\nWhich rule does this ad break?",
    {
        "none": "it complies",
        "rule_1_disease_claim": None,
        "rule_2_specific_results": None,
        "rule_3_before_after": None,
        "rule_4_under_18": None,
    },
)
HR_CATEGORY = choice(
    "Code of conduct. Which section of the code does the behaviour described mainly concern?",
    {
        "gifts_and_hospitality": "accepting or giving gifts, meals, trips",
        "conflicts_of_interest": "personal interests that could influence work decisions",
        "confidential_information": "protecting company and customer information",
        "respect_at_work": "harassment, bullying, discrimination",
        "use_of_company_assets": "laptops, vehicles, money, accounts used for personal purposes",
        "no_issue": "nothing in the code is engaged",
    },
)
DATA_SEVERITY = score(
    f"{DATA_POLICY}\n\nHow serious is the breach of the data handling rule in this message?",
    [
        "no breach",
        "minor: a small amount of low-sensitivity data, internal audience",
        "serious: customer personal data exposed beyond approved places",
        "critical: sensitive data (cards, health, ID numbers) or many customers exposed, or sent outside the company",
    ],
)
CONTRACT_RISK = score(
    "Procurement policy: contracts must allow termination for convenience with no more than 90 days' notice, cap "
    "our liability at the contract value, keep customer data in the UK or EU, and must not auto-renew for more "
    "than 12 months. Rate how far this contract excerpt deviates from the policy.",
    [
        "fully compliant",
        "one minor deviation that legal can accept with a note",
        "one material deviation that needs renegotiation",
        "several material deviations; do not sign",
    ],
)

LONG_EXPENSE = {
    "claim_id": "EXP-2024-05513",
    "employee": {"name": "Rhys Llewellyn", "department": "Field Sales", "grade": "Senior Account Manager"},
    "trip": "Client visits: Manchester and Leeds, 13–16 May 2024",
    "approver": "Siobhan Carter",
    "currency": "GBP",
    "lines": [
        {"date": "2024-05-13", "category": "rail", "description": "London Euston to Manchester Piccadilly, standard open return", "amount": 212.40, "receipt": True},
        {"date": "2024-05-13", "category": "meal", "description": "Lunch on train (sandwich, crisps, water)", "amount": 9.85, "receipt": True},
        {"date": "2024-05-13", "category": "taxi", "description": "Hotel to client office (Salford Quays), 08:05, Metrolink line suspended all morning", "amount": 18.60, "receipt": True},
        {"date": "2024-05-13", "category": "hotel", "description": "Hotel, Manchester city centre, 1 night", "amount": 118.00, "receipt": True},
        {"date": "2024-05-13", "category": "meal", "description": "Dinner, Ancoats (main, side, sparkling water)", "amount": 27.50, "receipt": True},
        {"date": "2024-05-14", "category": "meal", "description": "Breakfast (included in hotel rate)", "amount": 0.00, "receipt": True},
        {"date": "2024-05-14", "category": "tram", "description": "Metrolink day ticket", "amount": 6.40, "receipt": False},
        {"date": "2024-05-14", "category": "meal", "description": "Lunch with client team (4 people, itemised, no drinks)", "amount": 96.00, "receipt": True, "attendees": 4},
        {"date": "2024-05-14", "category": "hotel", "description": "Hotel, Manchester city centre, 1 night", "amount": 118.00, "receipt": True},
        {"date": "2024-05-14", "category": "meal", "description": "Dinner, room service", "amount": 22.00, "receipt": True},
        {"date": "2024-05-15", "category": "rail", "description": "Manchester to Leeds, off-peak single", "amount": 17.30, "receipt": True},
        {"date": "2024-05-15", "category": "meal", "description": "Coffee and pastry", "amount": 6.20, "receipt": False},
        {"date": "2024-05-15", "category": "meal", "description": "Lunch, Leeds Kirkgate Market", "amount": 11.50, "receipt": True},
        {"date": "2024-05-15", "category": "hotel", "description": "Hotel, Leeds, 1 night", "amount": 109.00, "receipt": True},
        {"date": "2024-05-15", "category": "meal", "description": "Client dinner, Leeds (2 people): food £52.00, bottle of Rioja £34.00, itemised receipt", "amount": 86.00, "receipt": True, "attendees": 2},
        {"date": "2024-05-15", "category": "taxi", "description": "Restaurant to hotel, 22:40", "amount": 9.80, "receipt": True},
        {"date": "2024-05-16", "category": "meal", "description": "Breakfast (included in hotel rate)", "amount": 0.00, "receipt": True},
        {"date": "2024-05-16", "category": "bus", "description": "Leeds city bus to client site, return", "amount": 4.00, "receipt": False},
        {"date": "2024-05-16", "category": "meal", "description": "Lunch at client canteen", "amount": 7.90, "receipt": True},
        {"date": "2024-05-16", "category": "rail", "description": "Leeds to London King's Cross, advance single", "amount": 64.50, "receipt": True},
        {"date": "2024-05-16", "category": "meal", "description": "Dinner on train", "amount": 12.40, "receipt": True},
        {"date": "2024-05-16", "category": "other", "description": "Mobile data top-up for hotspot during client demo", "amount": 10.00, "receipt": True},
    ],
    "total": 967.35,
    "employee_note": "All client meals were itemised. Metrolink was suspended on the 14th, hence the taxi. Thanks!",
}

LONG_BLOG_POST = """\
Personal blog — "What I learned in my first year as a backend engineer at Quillmark"
Posted by Aditya Menon · 9 min read · Opinions are my own and don't represent my employer.

A year ago I joined Quillmark, the note-taking app, as a backend engineer on the sync team. I'd spent three years at
a consultancy before that, so moving to a product company with millions of users was a big change. A few people
asked me to write up what surprised me, so here it is.

1. Boring technology is a feature
Our sync service is mostly Postgres, a queue, and a fair amount of carefully written Go. When I joined I assumed a
company this size would have some exotic distributed database at the core. It doesn't, and that's on purpose. The
senior engineers have a saying: "every new technology costs us a year of on-call pain". I've come round to it.

2. Reading code beats writing code
In my first three months I probably read ten lines for every one I wrote. The codebase has history; lots of odd
decisions turn out to be fixes for things that happened in 2019. Learning to ask "why is it like this?" before
"how do I change it?" was the most useful habit I picked up.

3. On-call is a teacher
I joined the on-call rotation in month four. I was terrified, and my first page was at 3am (a certificate that
hadn't auto-renewed — a classic). The postmortem culture here is genuinely blameless, which made a huge difference.
I learned more about how the system really works from a dozen pages than from any onboarding document.

4. Writing matters
We write design docs for anything bigger than a week of work. My first design doc got 64 comments. Most were
questions I should have answered in the doc. Now I write the "alternatives considered" section first, because
that's where reviewers focus.

5. The product team is your friend
I used to think of product managers as people who bring you deadlines. At Quillmark they're closer to being
researchers: they sit in on support calls and bring back real stories. When I understood that a sync bug meant a
teacher losing her lesson plans the night before a class, I started caring about edge cases differently.

6. What I'm excited about
The thing I'm most excited about is the project I've spent the last four months on: real-time collaborative editing
with offline support, which we're planning to launch in September as "Quillmark Together" alongside a new
Teams pricing tier at $8 per seat. It's built on CRDTs and it was a huge engineering challenge to make it work with our
existing sync protocol — I'll write a technical deep-dive once it's out. If you've been waiting for shared notebooks,
you won't have to wait much longer.

6b. A word on tooling
People ask what our stack looks like day to day. It's not glamorous: Go services, Postgres, a Kafka-compatible
queue, Terraform for infrastructure, and a lot of Grafana dashboards. The thing that impressed me most is the
internal CLI that wraps all of it — one command spins up a full local copy of the sync stack with seeded test data.
Good developer tooling is an investment that pays off every single day, and I'd encourage any team lead reading
this to fund it before they think they need it.

6c. Working remotely
Our team is spread across four time zones, from Lisbon to Bangalore. We have one overlap hour a day, and we protect
it fiercely for discussions that need everyone. Everything else happens in writing: design docs, threaded
discussions and recorded demos. It took me a while to stop feeling guilty about not answering messages instantly.
Now I batch my replies twice a day and my focus time is much better for it.

7. Things I'd tell my past self
- Ask for help after thirty minutes stuck, not three hours.
- Keep a work log. It makes performance reviews (and this post) much easier.
- Take your holidays. The system will survive.
- Learn the observability tools in week one, not month six.
- Pair with people on other teams; it's the fastest way to understand the whole system.

8. Hiring
We're hiring on the sync and platform teams. If any of this sounds interesting, check the careers page, and feel
free to message me on LinkedIn with questions about what it's like to work here — I'm happy to give an honest view.

Thanks for reading! Next time: how we test sync conflict resolution with property-based tests.

Comments (3)
- Mei: Great read, the point about reading code really resonates.
- Tobias: "Every new technology costs a year of on-call pain" — stealing this.
- Ana: Congrats on the first year! Looking forward to the CRDT deep-dive.
- Ravi: The on-call section is so true. My first page was also an expired certificate. It's a rite of passage.
"""

LONG_CONTRACT = """\
Contract excerpt for review — "Master Services Agreement between Orbitline Analytics Inc. (Supplier) and
Halden Retail Group Ltd (Customer)", draft 3, received 2 July 2024. Only clauses relevant to procurement review are
included.

1. Definitions
1.1 "Services" means the retail analytics platform, dashboards, data connectors and support services described in
Schedule 1.
1.2 "Customer Data" means all data, including personal data of the Customer's shoppers and employees, uploaded to or
processed by the Services.
1.3 "Fees" means the annual subscription fees set out in Schedule 2, currently GBP 186,000 per year.
1.4 "Effective Date" means the date of the last signature below.

2. Services
2.1 The Supplier will provide the Services to the Customer and its affiliates in the United Kingdom and Ireland,
for up to 400 named users and 220 store locations, as described in Schedule 1.
2.2 Onboarding, including connection of the Customer's point-of-sale and e-commerce data sources, will be completed
within 60 days of the Effective Date.

4. Term and renewal
4.1 This Agreement starts on the Effective Date and continues for an Initial Term of 36 months.
4.2 After the Initial Term, this Agreement automatically renews for successive Renewal Terms of 36 months each,
unless either party gives written notice of non-renewal at least 180 days before the end of the then-current term.
4.3 Fees for each Renewal Term may be increased by the Supplier by up to 9% per year.

5. Termination
5.1 Either party may terminate this Agreement for material breach if the breach is not remedied within 30 days of
written notice.
5.2 The Customer may not terminate this Agreement for convenience during the Initial Term or any Renewal Term.
5.3 On termination, the Supplier will make Customer Data available for export for 30 days, after which it will be
deleted.

8. Data protection
8.1 The Supplier will process Customer Data only on the Customer's documented instructions and in accordance with
the Data Processing Addendum in Schedule 4.
8.2 Customer Data will be hosted in the Supplier's data centres in the United States (Virginia and Oregon). The
Supplier may use sub-processors listed on its website, which it may update from time to time with 14 days' notice.
8.3 The Supplier maintains ISO 27001 certification and will notify the Customer of a personal data breach within
72 hours of becoming aware of it.

10. Liability
10.1 Neither party excludes liability for death or personal injury caused by negligence, or for fraud.
10.2 Subject to 10.1, the Supplier's total liability under this Agreement in any contract year is limited to the
Fees paid in the three months preceding the claim.
10.3 The Customer's total liability is limited to the Fees payable in the relevant contract year.

11. Service levels
11.1 The Supplier will use commercially reasonable efforts to make the platform available 99.5% of the time,
measured monthly, excluding scheduled maintenance.
11.2 Service credits are the Customer's sole remedy for failure to meet the service levels, capped at 5% of monthly
fees.

12. Intellectual property
12.1 The Supplier owns the Services and all improvements. The Customer owns Customer Data and reports generated
from it.

13. Confidentiality
13.1 Each party will keep the other party's confidential information secret and use it only to perform this
Agreement. These obligations survive for five years after termination.
13.2 The Supplier may name the Customer as a customer in its marketing materials, including its website and case
studies, unless the Customer objects in writing.

14. Governing law
14.1 This Agreement is governed by the laws of the State of Delaware, and the courts of Delaware have exclusive
jurisdiction.

15. Insurance
15.1 The Supplier will maintain professional indemnity insurance of at least USD 2,000,000 and cyber liability
insurance of at least USD 5,000,000 for the term of this Agreement.

16. Assignment
16.1 The Supplier may assign or transfer this Agreement to an affiliate or to a successor in connection with a
merger, acquisition or sale of assets without the Customer's consent. The Customer may not assign this Agreement
without the Supplier's prior written consent.

17. Audit
17.1 The Customer may audit the Supplier's compliance with clause 8 once per year, on 30 days' notice, at the
Customer's cost, and limited to reviewing the Supplier's most recent ISO 27001 audit report.

Schedule 2 (extract): Fees are invoiced annually in advance and are non-refundable.

Reviewer's note from the business sponsor (Category Manager, Analytics): "The platform is great and the team loved
the demo. Orbitline say this is their standard paper and they rarely change it. Keen to sign before the end of the
quarter so we can start the pilot in August."
"""

ITEMS = [
    # ---- ad policy ---------------------------------------------------------------------------------
    it(AD, "Start your morning with GreenRise — a blend of spinach, kale and apple powders. Tastes great in a "
           "smoothie. 30 servings per tub.", False),
    it(AD, "ImmunaMax: the natural supplement that prevents colds and flu all winter long. Don't get sick this year!",
       True),
    it(AD, "Lose 10 kg in 30 days with SlimTrim capsules — guaranteed or your money back!", True),
    it(AD, "Our yoga mats are made from natural rubber with a non-slip surface. Free delivery on orders over £30.",
       False),
    it(AD, "Before: tired, bloated, 92 kg. After 8 weeks on FitFuel: 78 kg and full of energy! [two photos side by "
           "side]", True),
    it(AD, "Back to school! Get the energy to ace your exams — CrunchBoost energy gummies, now in the Year 7-11 "
           "snack aisle. Kids love the sour cherry flavour.", True),
    it(AD, "Magnesium glycinate 400 mg — 120 vegan capsules. Supports normal muscle function as part of a balanced "
           "diet.", False),
    it(AD, "Feel calmer, sleep better — many customers say DreamDrops helps them unwind after a long day. Results vary.",
       False, amb=True),
    it(AD, "Arthri-Ease turmeric complex: say goodbye to arthritis pain for good.", True),
    # ---- expense policy ------------------------------------------------------------------------------
    it(EXPENSE, {"lines": [
        {"item": "Train Bristol–London, standard return", "amount": 98.40, "receipt": True},
        {"item": "Lunch", "amount": 12.80, "receipt": True},
        {"item": "Hotel London, 1 night", "amount": 149.00, "receipt": True},
    ]}, True),
    it(EXPENSE, {"lines": [
        {"item": "Flight London–New York, business class (7h 50m)", "amount": 3120.00, "receipt": True},
        {"item": "Dinner", "amount": 38.00, "receipt": True},
    ]}, True, amb=True),
    it(EXPENSE, {"lines": [
        {"item": "Flight Edinburgh–London, business class (1h 20m)", "amount": 412.00, "receipt": True},
        {"item": "Tube fares", "amount": 8.60, "receipt": False},
    ]}, False),
    it(EXPENSE, {"lines": [
        {"item": "Dinner with colleague: 2 mains, 2 glasses of wine", "amount": 61.00, "receipt": True,
         "note": "itemised receipt attached"},
    ]}, False),
    it(EXPENSE, {"lines": [
        {"item": "Hotel Birmingham, 2 nights", "amount": 236.00, "receipt": True, "note": "£118 per night"},
        {"item": "Taxi station to hotel, 23:15 (train delayed)", "amount": 14.50, "receipt": True},
    ]}, True),
    it(EXPENSE, {"lines": [
        {"item": "Client lunch (2 people)", "amount": 72.00, "receipt": False, "note": "receipt lost"},
    ]}, False),
    it(EXPENSE, {"lines": [
        {"item": "Taxi office to client, 14:00", "amount": 22.00, "receipt": True,
         "note": "tube strike all day, no trains running"},
    ]}, True, amb=True),
    it(EXPENSE, LONG_EXPENSE, False),
    # ---- data handling -------------------------------------------------------------------------------
    it(DATA, "#support-general: Anyone know why order 88120 is stuck in 'processing'? Customer has been waiting a "
             "week.", False),
    it(DATA, "#support-general: Can someone call this lady back? Margaret Doyle, 07700 900 551, she's on the "
             "Platinum plan and her card ending 4417 keeps getting declined.", True),
    it(DATA, "Forwarding the full customer export (customers_all_2024.csv) to my Gmail so I can work on it from home "
             "this weekend.", True),
    it(DATA, "Posted in #analytics: churn rate by region for Q2, aggregated, no customer-level rows.", False),
    it(DATA, "I pasted the complaint email (with the customer's name and address) into ChatGPT to help me draft a "
             "polite reply.", True),
    it(DATA, "Logged the customer's new delivery address on their Zendesk ticket as requested.", False),
    it(DATA, "DM to a colleague in Slack: 'can you check account 55012 when you get a sec? the one I mentioned "
             "at lunch'", False, amb=True),
    # ---- social media --------------------------------------------------------------------------------
    it(SOCIAL, "Proud of my team today — we shipped a big performance improvement to the app that's already live. "
               "Go update and try it! (my own views)", False),
    it(SOCIAL, "Can't say much, but our Q3 numbers come out next week and they're way above what analysts expect 📈 "
               "#bullish", True),
    it(SOCIAL, "Had a great visit to our client Tesco's head office today to demo our new dashboard!", True,
       amb=True),
    it(SOCIAL, "Ten years at Northmoor Bank today. Grateful for the people I've worked with. Here's to the next ten!",
       False),
    it(SOCIAL, "Fun fact: our whole office Wi-Fi password is still 'Welcome2020!' lol", True),
    it(SOCIAL, LONG_BLOG_POST, True),
    # ---- marketplace listings -----------------------------------------------------------------------------
    it(LISTING, "Vintage Singer sewing machine, 1960s, works perfectly, collection only from Stockport. £65.",
       "allowed"),
    it(LISTING, "Glock 19 magazine, 17 round, plus 200 rounds 9mm. Cash only, no questions.", "weapons"),
    it(LISTING, "Leftover tramadol 50mg, about 30 tablets, great for back pain. £40.", "prescription_drugs"),
    it(LISTING, "Louis Vuitton Neverfull bag — AAA quality mirror copy, looks identical to the real one. £45.",
       "counterfeit"),
    it(LISTING, "Two lovely guinea pigs, 6 months old, need a new home with hutch included. Small rehoming fee.",
       "live_animals"),
    it(LISTING, "Baby walker, model KidStep 2019 — recalled last year because the wheels lock, but it's fine if you "
                "watch them. £10.", "recalled_or_unsafe"),
    it(LISTING, "Netflix premium account with 2 years prepaid, I'll send you the login and password. £30.",
       "personal_data"),
    it(LISTING, "Handmade oak chopping board, 40 x 25 cm, food-safe oil finish.", "allowed"),
    it(LISTING, "Stun gun 50,000V with holster, rechargeable, brand new in box.", "weapons"),
    it(LISTING, "Collection of Pokémon cards incl. Charizard, all genuine, graded PSA 8.", "allowed"),
    it(LISTING, "Chef's knife set, Japanese steel, 8-inch gyuto and 6-inch petty, perfect for home cooks.",
       "allowed", amb=True),
    it(LISTING, "Selling my late grandad's air rifle, .22, with scope. Needs a new seal.", "weapons", amb=True),
    it(LISTING, "'Rolex' Submariner style watch, automatic, branded dial and box, unbeatable price.", "counterfeit"),
    it(LISTING, "Free-range laying hens, 3 available, point-of-lay, vaccinated.", "live_animals"),
    it(LISTING, "Scanned copy of a UK passport and matching utility bill, good for account verification.",
       "personal_data"),
    # ---- which ad rule ----------------------------------------------------------------------------------
    it(AD_RULE, "FlexiJoint glucosamine — trusted by 50,000 runners. Available at all good pharmacies.", "none"),
    it(AD_RULE, "Say goodbye to type 2 diabetes: GlucoBalance reverses blood sugar problems naturally.",
       "rule_1_disease_claim"),
    it(AD_RULE, "Drop two dress sizes in 14 days with the SculptSlim shake plan.", "rule_2_specific_results"),
    it(AD_RULE, "[Photo left: woman with acne, captioned 'Week 0'. Photo right: clear skin, captioned 'Week 6'.] "
                "ClearGlow serum.", "rule_3_before_after"),
    it(AD_RULE, "Teens! Get shredded for summer — TeenMuscle protein powder, designed for growing bodies aged 13-17.",
       "rule_4_under_18"),
    it(AD_RULE, "Build 5 kg of muscle in 6 weeks, guaranteed, with MassMax.", "rule_2_specific_results"),
    it(AD_RULE, "Collagen peptides for glowing skin and healthy-looking hair. Unflavoured, mixes into coffee.", "none"),
    # ---- code of conduct ----------------------------------------------------------------------------------
    it(HR_CATEGORY, "A supplier we're evaluating offered our buyer two tickets to the Champions League final, flights "
                    "and hotel included.", "gifts_and_hospitality"),
    it(HR_CATEGORY, "An engineer on the hiring panel realised the top candidate is her brother-in-law but hasn't told "
                    "anyone.", "conflicts_of_interest"),
    it(HR_CATEGORY, "A manager keeps making jokes about a team member's accent in meetings; she has asked him to stop.",
       "respect_at_work"),
    it(HR_CATEGORY, "An employee used the company fuel card to fill up his wife's car for a family holiday.",
       "use_of_company_assets"),
    it(HR_CATEGORY, "A sales rep left a printout of the customer price list on the train.",
       "confidential_information"),
    it(HR_CATEGORY, "Two colleagues disagreed strongly about the project plan in a meeting, then sorted it out over "
                    "coffee.", "no_issue"),
    it(HR_CATEGORY, "The procurement lead owns shares in one of the three companies bidding for the new contract.",
       "conflicts_of_interest"),
    it(HR_CATEGORY, "After a product launch, the team lead took everyone out for pizza, paid for from the team budget.",
       "no_issue", amb=True),
    # ---- data breach severity ---------------------------------------------------------------------------
    it(DATA_SEVERITY, "Shared in #team-support: 'ticket volume was 1,240 this week, up 8%'.", 0),
    it(DATA_SEVERITY, "In #support-uk: 'Mr Patel on ticket 4410 is happy now, thanks Jo!'", 1),
    it(DATA_SEVERITY, "In the company-wide #random channel: screenshot of a customer profile showing name, email, "
                      "phone number and home address.", 2),
    it(DATA_SEVERITY, "Emailed a spreadsheet of 3,000 patients' names, NHS numbers and diagnoses to an external "
                      "marketing agency's Gmail address.", 3),
    it(DATA_SEVERITY, "Pasted one customer's name and email into an unapproved online grammar checker to tidy up "
                      "a reply.", 2, amb=True),
    it(DATA_SEVERITY, "Posted in #billing-team (private, 6 members): a customer's full card number to ask why the "
                      "payment failed.", 3, amb=True),
    it(DATA_SEVERITY, "Told a colleague in the team channel that 'the Leeds customer' called back about her refund.",
       0),
    it(DATA_SEVERITY, "Sent the team's on-call rota (staff names and work phone numbers) to a new contractor's work "
                      "email.", 0, amb=True),
    # ---- contract deviation ------------------------------------------------------------------------------
    it(CONTRACT_RISK, "Term: 12 months, renewing annually unless either party gives 60 days' notice. Either party may "
                      "terminate for convenience on 60 days' notice. Liability capped at total fees paid. Data "
                      "hosted in Frankfurt (EU).", 0),
    it(CONTRACT_RISK, "Term: 24 months, then renews for 12-month periods. Customer may terminate for convenience on "
                      "120 days' notice. Liability capped at fees paid. Data hosted in Dublin.", 1, amb=True),
    it(CONTRACT_RISK, "Term: 12 months, auto-renews for 12 months. Termination for convenience on 30 days' notice. "
                      "Liability capped at £10,000 (contract value £240,000 per year). Data hosted in London.", 2),
    it(CONTRACT_RISK, "Either party may terminate on 90 days' notice. Liability capped at annual fees. Data may be "
                      "processed by sub-processors in the EU and, for support tickets only, in India.", 2, amb=True),
    it(CONTRACT_RISK, "Term: 12 months, no auto-renewal. Termination for convenience: 30 days' notice. Liability cap: "
                      "100% of fees in the preceding 12 months. Hosting: AWS eu-west-2 (London).", 0),
    it(CONTRACT_RISK, "Termination for convenience on 90 days' notice. Liability capped at contract value. Data "
                      "stored in the UK. Renewal: automatic for 12 months; price may rise by up to 5%.", 0),
    it(CONTRACT_RISK, LONG_CONTRACT, 3),
    # ---- medium-length texts --------------------------------------------------------------------------------
    it(SOCIAL, """
        LinkedIn post: Five years ago this week I joined Brightwell as a graduate analyst. I'd never written a line of
        SQL. Today I lead a team of six, and we've just wrapped up a project I'm really proud of: rebuilding the way
        our operations team forecasts demand, which cut a day-long manual process down to a few minutes. I can't
        go into the numbers, but the thing I'll remember is how the ops team sat with us every week to tell us
        where our models were wrong. Some lessons: talk to the people who'll use the thing you build; ship
        something small early; and write things down. Thank you to everyone who took a chance on me. (Views my own.)
        """, False),
    it(AD_RULE, """
        NEW: VitaGlow Kids gummies! Packed with vitamins C and D to support the normal function of the immune
        system, in three fruity flavours. Made without artificial colours. Suitable for ages 3+, take two gummies
        a day. Loved by parents — and now with a free sticker sheet in every pack, so your little ones can collect
        all 12 VitaGlow characters! Ask them which one they want next. Available at all major supermarkets.
        """, "rule_4_under_18", amb=True),
]
