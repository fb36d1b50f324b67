"""Expense audit: expense claims, card statements and supplier invoices judged against written expense and
procurement rules.

Every question states its rules in full; the items stress applying them: per-day caps with deductions, receipt
thresholds, currency conversion, approval levels with split-purchase aggregation, weekday checks on dates, price
tolerances, and "no rule broken" answers.
"""

from ._kit import choice, it, noul, score

DOMAIN = "expense_audit"
PREFIX = "expense"

# ---- Halcyon Group: US meal allowance -------------------------------------------------------------------------

PER_DIEM_POLICY = (
    "Halcyon Group meal allowance for US domestic trips.\n"
    "- A full travel day has a meal allowance of $75.00. The first and the last day of a trip have $56.25 (75%). A "
    "one-day trip (leaving and returning the same day) has $56.25.\n"
    "- If a meal is provided at no cost to the employee (by a client, a conference, an airline, or included in the "
    "hotel rate), deduct from that day's allowance: breakfast $15.00, lunch $20.00, dinner $30.00. The deduction "
    "applies even if the employee bought another meal instead.\n"
    "- Employees claim their actual meal spend (food, non-alcoholic drinks, tax and tip). Alcohol is never "
    "reimbursed and is removed before the spend is compared with the allowance.\n"
    "- Each day's meal spend must not exceed that day's allowance."
)
PER_DIEM_OK = noul(
    f"{PER_DIEM_POLICY}\n\nWork out each day's allowance and each day's meal spend (without alcohol). Is every day's "
    "meal spend within that day's allowance?",
    true="Every day is within its allowance.",
    false="At least one day's meal spend is over its allowance.",
)
PER_DIEM_DAYS_OVER = score(
    f"{PER_DIEM_POLICY}\n\nWork out each day's allowance and each day's meal spend (without alcohol). On how many "
    "days does the meal spend exceed that day's allowance?",
    [
        "no day is over its allowance",
        "exactly one day is over",
        "exactly two days are over",
        "three or more days are over",
    ],
)

# ---- Halcyon Group: receipts ---------------------------------------------------------------------------------------

RECEIPT_POLICY = (
    "Halcyon Group receipt rules.\n"
    "1. Every expense of $25.00 or more needs an itemised receipt. Expenses under $25.00 need no receipt.\n"
    "2. For meals, a card slip, bank statement or table booking confirmation is not an itemised receipt. For hotels, "
    "flights and rail, the booking confirmation, e-ticket or hotel folio is accepted.\n"
    "3. If an itemised receipt has been lost, the employee may use one signed missing-receipt declaration per claim, "
    "for a single expense of no more than $75.00.\n"
    "4. Mileage lines need no receipt."
)
RECEIPTS_OK = noul(
    f"{RECEIPT_POLICY}\n\nDoes every line of this claim meet the receipt rules?",
    true="Every line meets the receipt rules.",
    false="At least one line does not meet the receipt rules.",
)

# ---- Halcyon Group: international meal caps ------------------------------------------------------------------------

INTL_MEAL_POLICY = (
    "Halcyon Group international meal caps, per day, in US dollars: London $95, Paris $90, Berlin $80, Tokyo $85, "
    "Mexico City $60, Toronto $75. Convert each receipt to US dollars with the exchange rate stated on the claim, "
    "add up each day's meals (alcohol is removed first, as it is never reimbursed), and compare the day's total with "
    "the cap of the city where the employee was that day. Arrival and departure days get the full cap."
)
INTL_MEAL_OK = noul(
    f"{INTL_MEAL_POLICY}\n\nIs every day's meal total within the cap for that day's city?",
    true="Every day is within its city's cap.",
    false="At least one day is over its city's cap.",
)

# ---- Aldermoor Council: purchase approvals ----------------------------------------------------------------------------

ALDERMOOR_POLICY = (
    "Aldermoor Council purchase approval rules.\n"
    "- The value of a purchase is its total cost including VAT, delivery and installation. Where a price is given "
    "excluding VAT, add VAT at 20%.\n"
    "- Under £1,000.00: the budget holder approves.\n"
    "- £1,000.00 to £9,999.99: the budget holder and the head of service.\n"
    "- £10,000.00 to £49,999.99: the budget holder, the head of service and the finance director.\n"
    "- £50,000.00 or more: all of those plus the chief executive, and a formal tender is required.\n"
    "- Split-purchase rule: orders placed with the same supplier for the same project or need, 60 days or less "
    "apart, are added together to decide the approval level.\n"
    "- Prices in other currencies are converted to pounds at the rate stated on the order."
)
ALDERMOOR_LEVEL = choice(
    f"{ALDERMOOR_POLICY}\n\nWhat is the most senior approval this purchase needs?",
    {
        "budget_holder_only": "the budget holder alone",
        "head_of_service": "the head of service (with the budget holder)",
        "finance_director": "the finance director (with the head of service and budget holder)",
        "chief_executive": "the chief executive (with everyone below, plus a formal tender)",
        "procurement_board": "the council's procurement board",
        "no_approval_needed": "no approval at all",
    },
)
ALDERMOOR_FD = noul(
    f"{ALDERMOOR_POLICY}\n\nTaking VAT, currency and the split-purchase rule into account, does this purchase need "
    "the finance director's approval?"
)

# ---- Northgate Consulting: travel rules ----------------------------------------------------------------------------------

NORTHGATE_POLICY = (
    "Northgate Consulting expense rules.\n"
    "1. A claim must be submitted no more than 60 days after the date of each expense on it.\n"
    "2. Hotel room rate (before taxes) at most $240 per night in New York, Boston and San Francisco, and at most $170 "
    "per night elsewhere in the US.\n"
    "3. Expenses dated on a Saturday or Sunday are reimbursable only if the trip's travel approval covers those dates.\n"
    "4. Alcohol is not reimbursable.\n"
    "5. Flights: economy class when the scheduled flight time is under 6 hours; premium economy is allowed at 6 hours "
    "or more; business class only with written CFO approval.\n"
    "6. Personal items are not reimbursable: in-room movies, minibar, gym or spa fees, and laundry on trips shorter "
    "than 5 nights."
)
NORTHGATE_RULE = choice(
    f"{NORTHGATE_POLICY}\n\nWhich rule does this claim break? If it breaks more than one, choose the lowest-numbered "
    "rule that is broken.",
    {
        "no_rule_broken": "every line complies",
        "rule_1_late": "submitted too late",
        "rule_2_hotel_rate": "hotel rate over the city limit",
        "rule_3_weekend": "weekend expense not covered by the travel approval",
        "rule_4_alcohol": "alcohol claimed",
        "rule_5_flight_class": "flight class not allowed",
        "rule_6_personal": "personal item claimed",
    },
)

# ---- Corbel Manufacturing: invoice matching --------------------------------------------------------------------------------

CORBEL_POLICY = (
    "Corbel Manufacturing accounts payable. Check each supplier invoice against the purchase order (PO) and the goods "
    "receipt, in this order, and give the first outcome that applies:\n"
    "1. reject_duplicate: an invoice with the same supplier and the same invoice number has already been paid.\n"
    "2. hold_no_valid_po: the invoice quotes no PO number, or the PO quoted is closed or was raised for a different "
    "supplier.\n"
    "3. hold_quantity: on any line, the quantity invoiced is more than the quantity received on the goods receipt.\n"
    "4. hold_price: on any line, the invoiced unit price is more than 2% above the PO unit price.\n"
    "5. approve_payment: none of the above.\n"
    "Invoicing fewer units than were received, or a unit price below the PO price, is acceptable."
)
CORBEL_OUTCOME = choice(
    f"{CORBEL_POLICY}\n\nWhat is the outcome for this invoice?",
    {
        "approve_payment": "pay the invoice",
        "reject_duplicate": "already paid",
        "hold_no_valid_po": "no valid PO",
        "hold_quantity": "more invoiced than received",
        "hold_price": "unit price more than 2% over the PO",
        "hold_tax_query": "hold because the tax calculation needs checking",
        "pay_matching_lines_only": "pay only the lines that match and short-pay the rest",
    },
)

# ---- Rowan Partners: client entertainment ------------------------------------------------------------------------------

ROWAN_POLICY = (
    "Rowan Partners client entertainment rules.\n"
    "(a) The cost may be at most $120.00 per attendee, including tax and tip; employees count as attendees.\n"
    "(b) The claim must give the name and the employer of every attendee.\n"
    "(c) At least one attendee must be from a client or a prospective client; internal-only events are not client "
    "entertainment.\n"
    "(d) Alcohol may be at most 30% of the total bill.\n"
    "(e) Events costing more than $1,000.00 in total need a partner's approval given before the event."
)
ROWAN_OUTCOME = choice(
    f"{ROWAN_POLICY}\n\nGive the first outcome in this list that applies: reject_internal_only if (c) is not met; "
    "reject_no_preapproval if (e) is not met; return_for_details if (b) is not met; approve_reduced if (a) or (d) is "
    "exceeded (only the allowed amount is paid); otherwise approve.",
    {
        "approve": "everything is within the rules",
        "approve_reduced": "pay only the allowed amount because of the per-attendee cap or the alcohol share",
        "return_for_details": "names or employers of attendees are missing",
        "reject_internal_only": "no client or prospect attended",
        "reject_no_preapproval": "over $1,000 without a partner's approval given beforehand",
        "escalate_to_compliance": "refer the claim to the compliance team",
    },
)

# ---- Fenwick Labs: claims desk decision ---------------------------------------------------------------------------------

FENWICK_POLICY = (
    "Fenwick Labs claims desk rules.\n"
    "- Caps: hotel up to €150.00 per night; meals up to €50.00 per day in total; taxi up to €40.00 per ride.\n"
    "- Receipts: required for every line over €20.00.\n"
    "- Deadline: a claim must be submitted no more than 90 days after the latest expense date on it.\n"
    "- Duplicates: a line that was already paid on an earlier claim (same date, merchant and amount) is a duplicate."
)
FENWICK_DECISION = score(
    f"{FENWICK_POLICY}\n\nDecide the claim. Use the highest level that applies.",
    [
        "pay in full: every line within its cap, every required receipt present, submitted on time, no duplicates",
        "pay with reduction: one or more lines over a cap are cut to the cap; nothing else wrong",
        "return for documents: a required receipt is missing (this outranks reductions)",
        "reject: submitted more than 90 days after the latest expense date, or a duplicate line is included",
    ],
)

# ---- Pell & Crane: mileage --------------------------------------------------------------------------------------------

MILEAGE_POLICY = (
    "Pell & Crane mileage rules (UK). Business mileage is paid at £0.45 per mile. On the employee's normal working "
    "days, when a business journey starts at home, deduct the employee's usual one-way commute distance from the "
    "outward leg, and when it ends at home, deduct it from the return leg (a leg never goes below zero miles). There "
    "is no commute deduction on weekends or on the employee's stated non-working days, or for legs that start or end "
    "at the office. Parking and tolls are paid at cost. Parking fines and speeding fines are never paid."
)
MILEAGE_BAND = score(
    f"{MILEAGE_POLICY}\n\nWork out the total amount payable for this claim. Which band is it in?",
    [
        "£0.00",
        "£0.01 to £25.00",
        "£25.01 to £60.00",
        "£60.01 to £120.00",
        "more than £120.00",
    ],
)

# ---- Tessellate: corporate card review --------------------------------------------------------------------------------

CARD_POLICY = (
    "Tessellate corporate card review. Each statement must be reconciled (receipts attached and charges coded) "
    "within 10 days of the statement date; 'days late' counts from that deadline. Rate the statement by its most "
    "serious issue:\n"
    "0 = compliant: only business charges, all with receipts, reconciled on time.\n"
    "1 = minor: a business charge under £50 without a receipt, or reconciled 1 to 15 days late.\n"
    "2 = moderate: a business charge of £50 or more without a receipt; reconciled more than 15 days late; or a "
    "personal charge under £100 that was declared and repaid within 30 days of the charge.\n"
    "3 = serious: a personal charge of £100 or more; a personal charge not repaid within 30 days; or any cash "
    "withdrawal.\n"
    "4 = critical: one purchase split into several charges to stay under the £2,000 single-transaction limit; or a "
    "payment to a business owned by the cardholder or a relative."
)
CARD_SEVERITY = score(
    f"{CARD_POLICY}\n\nRate this statement.",
    [
        "0 - compliant",
        "1 - minor",
        "2 - moderate",
        "3 - serious",
        "4 - critical",
    ],
)

ITEMS = [
    # ---- per diem: every day within allowance? ---------------------------------------------------------------------
    # D1 first 56.25: 14.50+38.20=52.70 ok; D2 75-15=60: 18.00+41.75=59.75 ok; D3 last 56.25-15=41.25: 16.40+22.10=38.50 ok.
    it(PER_DIEM_OK, {
        "claim": "HG-EXP-40117",
        "employee": "Marisol Vega",
        "trip": "Denver, client workshops, 7-9 April 2025 (Mon-Wed)",
        "hotel": "Hotel rate included breakfast on the mornings of 8 and 9 April (breakfast not taken on 7 April; "
                 "arrived 11:00)",
        "meals": [
            {"date": "2025-04-07", "meal": "lunch", "amount": 14.50},
            {"date": "2025-04-07", "meal": "dinner", "amount": 38.20},
            {"date": "2025-04-08", "meal": "lunch", "amount": 18.00},
            {"date": "2025-04-08", "meal": "dinner", "amount": 41.75},
            {"date": "2025-04-09", "meal": "lunch", "amount": 16.40},
            {"date": "2025-04-09", "meal": "dinner (airport)", "amount": 22.10},
        ],
    }, True),
    # D1 first 56.25: 12.30+48.00=60.30 over.
    it(PER_DIEM_OK, """\
        Expense claim HG-EXP-40322 - Kenji Mori - Chicago, 12-13 May 2025 (2-day trip)
        12 May  lunch, O'Hare food court ............ $12.30
        12 May  dinner, steakhouse with team (own share, no drinks) ... $48.00
        13 May  breakfast, cafe near hotel .......... $9.10
        13 May  lunch, train station ................ $15.00
        No meals were provided on this trip; the hotel rate was room only.
        Employee note: "Dinner was pricey but we had the project kick-off to celebrate." """, False),
    # conference lunch 21+22 Oct. D1 56.25: 41.00; D2 55: 9.80+44.60=54.40; D3 55: 11.25+46.00=57.25 over; D4 56.25: 28.25.
    it(PER_DIEM_OK, """\
        Trip: DevSummit Austin, 20-23 October 2025 (4 days). Conference registration included a free lunch on 21 and
        22 October. Hotel room only.
        Meals claimed by Priya Nandakumar:
          20 Oct - dinner $41.00
          21 Oct - breakfast $9.80, dinner $44.60
          22 Oct - breakfast $11.25, dinner $46.00
          23 Oct - breakfast $10.40, lunch $17.85
        All amounts are food and soft drinks only, including tax and tip.""", False),
    # one-day 56.25: 8.75+21.40+25.00=55.15 ok.
    it(PER_DIEM_OK, """\
        From: Owen Castellano
        To: expenses@halcyongroup.com
        Subject: Day trip to Philadelphia - 3 March 2025

        Hi, claim for yesterday's day trip (left on the 6:10 train, back at 21:30 the same day). Meals:
        breakfast at the station $8.75, lunch near the client's office $21.40, dinner on the train home $25.00.
        No meals were provided by the client. Receipts attached. Thanks!""", True),
    # D1 56.25: 13.20+35.90=49.10; D2 75: 9.50 + (88.40-24.00)=73.90; D3 56.25: 12.00+19.75=31.75. All ok.
    it(PER_DIEM_OK, {
        "claim": "HG-EXP-41088",
        "employee": "Rosa Delgado",
        "trip": "Seattle, 16-18 June 2025",
        "provided_meals": "none",
        "meals": [
            {"date": "2025-06-16", "item": "lunch", "amount": 13.20},
            {"date": "2025-06-16", "item": "dinner", "amount": 35.90},
            {"date": "2025-06-17", "item": "lunch", "amount": 9.50},
            {"date": "2025-06-17", "item": "dinner, seafood restaurant", "amount": 88.40,
             "receipt_detail": "food and soft drinks $64.40; two glasses of wine $24.00"},
            {"date": "2025-06-18", "item": "breakfast", "amount": 12.00},
            {"date": "2025-06-18", "item": "lunch", "amount": 19.75},
        ],
    }, True),
    # client dinner on D2: 75-30=45; 12.00+35.50=47.50 over.
    it(PER_DIEM_OK, """\
        Claim HG-EXP-41230, Tom Brannigan, Minneapolis 14-16 July 2025.
        The client (Norland Foods) hosted and paid for dinner on 15 July.
        14 Jul: dinner $44.00
        15 Jul: breakfast $12.00; working lunch at a deli $35.50
        16 Jul: breakfast $10.00; lunch $14.60
        Tom's note: "Lunch on the 15th was for me only, it was a big sandwich place. No alcohol anywhere." """, False),
    # D1 56.25: 50.25; D2 75: 11+19+45=75.00 ok (equal); D3 56.25: 22.40.
    it(PER_DIEM_OK, """\
        Meals - Anika Sorensen - Boston, 4-6 August 2025 (no meals provided)
        Mon 4 Aug   dinner                          $50.25
        Tue 5 Aug   breakfast $11.00 | lunch $19.00 | dinner $45.00
        Wed 6 Aug   lunch (airport)                 $22.40
        Submitted with itemised receipts, no alcohol on any bill.
        Purpose: quarterly steering meeting at the client's Back Bay office. Flights booked through the travel desk;
        hotel room only (no breakfast included). Anika's note: "Tuesday's dinner was with the project team, but I
        paid only for my own meal.\"""", True),
    # 2-day trip; D1 56.25: 48.50 ok; D2 last 56.25-15 (hotel breakfast)=41.25: 19.90+24.00=43.90 over.
    it(PER_DIEM_OK, {
        "claim": "HG-EXP-41502",
        "employee": "Darnell Hughes",
        "trip": "Nashville, 25-26 September 2025",
        "provided_meals": [{"date": "2025-09-26", "meal": "breakfast", "provider": "included in hotel rate"}],
        "meals": [
            {"date": "2025-09-25", "meal": "lunch", "amount": 15.00},
            {"date": "2025-09-25", "meal": "dinner", "amount": 33.50},
            {"date": "2025-09-26", "meal": "lunch", "amount": 19.90},
            {"date": "2025-09-26", "meal": "dinner (airport)", "amount": 24.00},
        ],
        "alcohol": "none",
    }, False),
    # 5 days: D1 47.30; D2 66.10; D3 73.35; D4 73.45; D5 28.20. All ok.
    it(PER_DIEM_OK, """\
        Claim HG-EXP-41611 - Lena Fischer - Atlanta audit, Monday 22 to Friday 26 September 2025. No meals provided;
        hotel room only.
        22 Sep: dinner 47.30
        23 Sep: breakfast 9.40, lunch 16.80, dinner 39.90
        24 Sep: breakfast 8.20, lunch 21.00, dinner 44.15
        25 Sep: breakfast 10.10, lunch 14.60, dinner 48.75
        26 Sep: breakfast 9.90, lunch 18.30
        All amounts USD, food and non-alcoholic drinks only.""", True),
    # one-day 56.25: 7.50+26.00+24.50=58.00 over.
    it(PER_DIEM_OK, """\
        Hey team - day trip to Baltimore on 11 November 2025 (out at 7am, home by 10pm). Meals were:
        coffee and bagel $7.50, lunch with the site engineer (just mine, he paid his own) $26.00, and dinner at the
        station before the train $24.50. Nothing was provided. Receipts are in the app.
        Cheers, Grant""", False),
    # D1 first 29.80; D2 75-15=60: 7.50+17.00+33.00=57.50 ok; D3 last 56.25-15=41.25: 21.10+6.00=27.10 ok.
    it(PER_DIEM_OK, """\
        Claim HG-EXP-41790, Beatriz Lopes, Phoenix, 1-3 December 2025.
        Hotel rate included breakfast on 2 and 3 December. On the 2nd I skipped the hotel breakfast because of an early
        site visit and bought coffee and a pastry instead.
        1 Dec: dinner $29.80
        2 Dec: coffee and pastry $7.50, lunch $17.00, dinner $33.00
        3 Dec: lunch $21.10, snack at the gate $6.00""", True),
    # ---- per diem: how many days over? ---------------------------------------------------------------------------------
    # 2-day: D1 56.25: 11.00+42.80=53.80; D2 56.25: 9.00+20.00=29.00 -> 0.
    it(PER_DIEM_DAYS_OVER, """\
        Claim HG-EXP-42005 - Felix Ambrose - Cleveland, 13-14 January 2025 (no meals provided)
        Purpose: installation sign-off at the Lakeshore distribution centre. Hotel: room only, 1 night.
        13 Jan: lunch $11.00; dinner $42.80
        14 Jan: breakfast $9.00; lunch $20.00
        Receipts itemised; no alcohol. Felix flew back on the 17:40 flight on the 14th and did not claim a dinner
        that day because he ate at home.""", 0),
    # 3-day: D1 56.25: 58.10 over; D2 75: 70.20; D3 56.25: 40.00 -> 1.
    it(PER_DIEM_DAYS_OVER, {
        "claim": "HG-EXP-42118",
        "employee": "Hannah Kowalczyk",
        "trip": "Dallas, 3-5 February 2025",
        "provided_meals": "none",
        "daily_meal_totals": {"2025-02-03": 58.10, "2025-02-04": 70.20, "2025-02-05": 40.00},
        "alcohol": "none",
        "note": "Totals include tax and tip. 4 Feb includes a working dinner with the implementation team "
                "(own share only).",
        "hotel": "room only, 2 nights",
        "purpose": "ERP cut-over support at the Irving warehouse",
    }, 1),
    # conf lunch D2, D3 (55). D1 45 ok; D2 12+48=60 over; D3 10+44=54 ok; D4 last 56.25: 14+22+25=61 over -> 2.
    it(PER_DIEM_DAYS_OVER, """\
        HealthTech Expo, San Diego, 10-13 March 2025 (4 days). The expo provided a free lunch on 11 and 12 March.
        Employee: Joel Abernathy. Hotel room only.
        10 Mar - dinner $45.00
        11 Mar - breakfast $12.00, dinner $48.00
        12 Mar - breakfast $10.00, dinner $44.00
        13 Mar - breakfast $14.00, lunch $22.00, dinner at the airport $25.00
        All food and soft drinks.""", 2),
    # D1 57.00 > 56.25; D2 76.40 > 75; D3 60.10 > 56.25 -> 3.
    it(PER_DIEM_DAYS_OVER, """\
        From: Sofia Marchetti
        Subject: Meals - Portland trip 7-9 April 2025

        Daily meal totals (food only, tax and tip included, no alcohol, nothing provided):
        Monday 7 April - $57.00
        Tuesday 8 April - $76.40
        Wednesday 9 April - $60.10
        I know these are a little high, the city is expensive! Receipts attached.""", 3),
    # D1 56.25: 50; D2 75: 8 + (95-30) = 73 ok; D3 56.25: 30 -> 0.
    it(PER_DIEM_DAYS_OVER, {
        "claim": "HG-EXP-42390",
        "employee": "Isaac Bloom",
        "trip": "New Orleans, 19-21 May 2025",
        "provided_meals": "none",
        "meals": [
            {"date": "2025-05-19", "desc": "dinner", "amount": 50.00},
            {"date": "2025-05-20", "desc": "lunch", "amount": 8.00},
            {"date": "2025-05-20", "desc": "dinner, Creole restaurant", "amount": 95.00,
             "itemised": "food $65.00, two cocktails $30.00"},
            {"date": "2025-05-21", "desc": "breakfast and lunch", "amount": 30.00},
        ],
    }, 0),
    # client dinner D2 (45): 10+37=47 over; D1 56.25: 40 ok; D3 56.25: 25 ok -> 1.
    it(PER_DIEM_DAYS_OVER, """\
        Claim HG-EXP-42477 - Nora Lindqvist - Charlotte, 9-11 June 2025
        The client paid for dinner on 10 June (team dinner at their office).
        9 Jun: dinner $40.00
        10 Jun: breakfast $10.00; lunch $37.00
        11 Jun: breakfast $9.00; lunch $16.00
        No alcohol claimed. Hotel room only. Nora travelled by car, so there were no airline meals; mileage is on a
        separate claim. Her note: "The lunch on the 10th was a long working session at a restaurant near the
        client, so it was a bit more than usual.\"""", 1),
    # 5-day: D1 56.25: 59.40 over; D2 75: 72.00; D3 75: 81.20 over; D4 75: 74.95; D5 56.25: 33.10 -> 2.
    it(PER_DIEM_DAYS_OVER, """\
        Claim HG-EXP-42560, Marcus Oyelaran, Houston plant commissioning, 14-18 July 2025, no meals provided.
        Daily meal spend (food and soft drinks, incl. tax and tip):
          Mon 14 Jul  $59.40
          Tue 15 Jul  $72.00
          Wed 16 Jul  $81.20
          Thu 17 Jul  $74.95
          Fri 18 Jul  $33.10
        Marcus was on site twelve hours a day and ate most meals at the restaurant next to the hotel. He flew home
        on Friday afternoon. Receipts are itemised and show no alcohol.""", 2),
    # D2 75: lunch 21 + dinner (70-12 beer)=58 -> 79 over; D1 56.25: 41 ok; D3 56.25: 26 ok -> 1.
    it(PER_DIEM_DAYS_OVER, {
        "claim": "HG-EXP-42604",
        "employee": "Caleb Strand",
        "trip": "Milwaukee, 4-6 August 2025",
        "provided_meals": "none",
        "meals": [
            {"date": "2025-08-04", "desc": "dinner", "amount": 41.00},
            {"date": "2025-08-05", "desc": "lunch", "amount": 21.00},
            {"date": "2025-08-05", "desc": "dinner at brewpub", "amount": 70.00,
             "itemised": "food $58.00, beer $12.00"},
            {"date": "2025-08-06", "desc": "lunch", "amount": 26.00},
        ],
    }, 1),
    # 4-day: D1 56.25: 60 over; D2 75: 80 over; D3 75: 74 ok; D4 56.25: 57 over -> 3.
    it(PER_DIEM_DAYS_OVER, """\
        Meals summary - Yasmin Haddad - Miami sales conference, 1-4 September 2025 (no meals provided by the
        conference; hotel room only).
        1 Sep: $60.00
        2 Sep: $80.00
        3 Sep: $74.00
        4 Sep: $57.00
        All food, tax and tip; no alcohol. The conference only provided coffee and pastries in the breaks, which
        don't count as a meal. Yasmin's manager added: "Miami prices are high, please be flexible." """, 3),
    # ---- receipts --------------------------------------------------------------------------------------------------------
    # taxi 18.40 none ok; lunch 24.99 none ok; hotel folio ok.
    it(RECEIPTS_OK, {
        "claim": "HG-EXP-50101",
        "employee": "Aaron Whitby",
        "lines": [
            {"date": "2025-02-18", "item": "Taxi, airport to hotel", "amount": 18.40, "document": None},
            {"date": "2025-02-18", "item": "Lunch", "amount": 24.99, "document": None},
            {"date": "2025-02-18", "item": "Hotel, 1 night", "amount": 189.00, "document": "hotel folio"},
        ],
        "missing_receipt_declarations": 0,
    }, True),
    # dinner 25.00 with card slip only: fails.
    it(RECEIPTS_OK, """\
        Claim HG-EXP-50188 - Gemma Clarke
        1. Train ticket, Newark to Washington, $96.00 - e-ticket attached
        2. Dinner, Union Station, $25.00 - card slip attached (the restaurant couldn't print an itemised bill)
        3. Coffee, $4.80 - no receipt
        No missing-receipt declarations used.
        Gemma's note: "The restaurant's printer was down, so they only gave me the card slip. It shows the amount and
        the restaurant name, so I hope that's enough." """, False),
    # lunch 42 lost, one declaration; taxi 31 receipt.
    it(RECEIPTS_OK, """\
        Claim HG-EXP-50240, Jorge Ibarra, 6 March 2025
        - Client lunch (2 people), $42.00: itemised receipt lost - signed missing-receipt declaration attached
        - Taxi to client site, $31.00: itemised receipt attached
        - Parking meter, $6.00: no receipt
        - Mileage, 48 miles: no receipt
        This is the only declaration on the claim.""", True),
    # two declarations: fails.
    it(RECEIPTS_OK, {
        "claim": "HG-EXP-50315",
        "employee": "Leah Goldberg",
        "lines": [
            {"item": "Dinner, Austin", "amount": 46.00, "document": "signed missing-receipt declaration"},
            {"item": "Taxi, hotel to office", "amount": 30.00, "document": "signed missing-receipt declaration"},
            {"item": "Hotel, 2 nights", "amount": 338.00, "document": "hotel folio"},
        ],
        "employee_note": "Lost my wallet with both receipts in it, sorry!",
    }, False),
    # declaration for 82.50: over 75.
    it(RECEIPTS_OK, """\
        Expense claim HG-EXP-50377 (Victor Osei)
        Team lunch with a supplier rep, $82.50 - receipt lost, signed missing-receipt declaration attached
        Metro card top-up, $20.00 - no receipt
        Airport shuttle, $14.00 - no receipt
        Only one declaration on this claim.
        Victor's note: "The lunch was to agree next year's pricing with the supplier, so it was business-critical. I
        left the receipt in the rental car." """, False),
    # flight confirmation ok; mileage ok; parking 12 ok.
    it(RECEIPTS_OK, """\
        From: Naomi Pratt
        Subject: Claim for the Raleigh visit

        Lines:
        - Flight Boston-Raleigh return, $412.00 (booking confirmation attached)
        - Mileage home to Logan airport and back, 56 miles (no receipt needed)
        - Airport parking, $12.00 (no receipt, pay-and-display machine)
        - Lunch at the client site, $18.25 (no receipt)
        Thanks, Naomi""", True),
    # train ticket exactly 25.00 without receipt: fails.
    it(RECEIPTS_OK, {
        "claim": "HG-EXP-50460",
        "employee": "Oliver Grant",
        "lines": [
            {"item": "Client dinner (3 people)", "amount": 67.30, "document": "itemised receipt"},
            {"item": "Train ticket to Stamford", "amount": 25.00, "document": None},
            {"item": "Bottled water", "amount": 2.50, "document": None},
        ],
        "missing_receipt_declarations": 0,
        "employee_note": "The ticket machine at the station wouldn't print a receipt, but the fare is on the "
                         "Metro-North website if you need to check it.",
    }, False),
    # breakfast 24.95 none; dinner itemised; hotel folio.
    it(RECEIPTS_OK, """\
        Claim HG-EXP-50512 - Chiara Russo - Detroit, 22 April 2025
        Breakfast, hotel cafe ........ $24.95  (no receipt)
        Dinner ....................... $58.00  (itemised receipt)
        Hotel, 1 night ............... $159.00 (folio)
        Taxi ......................... $19.60  (no receipt)
        Purpose: supplier quality review at Motorline Components. No missing-receipt declaration needed.
        Chiara's note: "Breakfast was at the hotel cafe before the plant tour; I didn't ask for a receipt." """, True),
    # dinner 39.80 with bank statement only, no declaration: fails.
    it(RECEIPTS_OK, """\
        Hi Expenses, attaching my claim for the Tampa trip. The dinner on 3 June ($39.80) only shows on my bank
        statement - the restaurant's printer was broken - so I've attached a screenshot of the statement line. The
        hotel ($172.00) has its folio attached and the airport bus ($9.00) had no receipt. I haven't filled in a
        missing-receipt declaration as the statement proves the payment.
        Best, Diego Ferreira""", False),
    # conference invoice itemised; taxi 22 none; dinner itemised.
    it(RECEIPTS_OK, {
        "claim": "HG-EXP-50640",
        "employee": "Mei Lin Zhou",
        "lines": [
            {"item": "Conference registration, DataOps Summit", "amount": 350.00, "document": "itemised invoice"},
            {"item": "Taxi to venue", "amount": 22.00, "document": None},
            {"item": "Dinner", "amount": 61.00, "document": "itemised receipt"},
            {"item": "Mileage, 30 miles", "amount": 20.10, "document": None},
        ],
        "missing_receipt_declarations": 0,
    }, True),
    # meal with table booking confirmation only: fails.
    it(RECEIPTS_OK, """\
        Claim HG-EXP-50702, Samuel Achterberg
        - Dinner with prospect, $48.00: OpenTable booking confirmation attached (shows the restaurant, date and time)
        - Hotel, $145.00: hotel folio attached
        - Subway fares, $5.80: no receipt
        No missing-receipt declarations.
        Samuel's note: "The restaurant emailed me the booking confirmation, which shows the restaurant, the date and
        that we were a party of two. I paid at the table and forgot to ask for the bill." """, False),
    # hotel booking confirmation ok; lunch declaration 74.99 ok; coffee ok.
    it(RECEIPTS_OK, """\
        Claim HG-EXP-50788 - Abigail Moreno - Sacramento, 14-15 October 2025
        Hotel, 1 night: $240.00 - hotel booking confirmation attached
        Working lunch with the state procurement team: $74.99 - receipt lost, one signed missing-receipt declaration
        Coffee: $6.00 - no receipt
        Rental car fuel top-up: $21.30 - no receipt""", True),
    # ---- international meal caps -------------------------------------------------------------------------------------
    # London @1.27: D1 68.50 -> 87.00 ok; D2 71.50 -> 90.81 ok.
    it(INTL_MEAL_OK, {
        "claim": "HG-INT-7012",
        "employee": "Rachel Kim",
        "city": "London",
        "exchange_rate": "1 GBP = 1.27 USD",
        "meals": [
            {"date": "2025-03-10", "desc": "lunch", "amount_gbp": 22.40},
            {"date": "2025-03-10", "desc": "dinner", "amount_gbp": 46.10},
            {"date": "2025-03-11", "desc": "lunch", "amount_gbp": 31.00},
            {"date": "2025-03-11", "desc": "dinner", "amount_gbp": 40.50},
        ],
        "alcohol": "none",
    }, True),
    # Paris @1.08: D1 85.50 EUR -> 92.34 over.
    it(INTL_MEAL_OK, """\
        Claim HG-INT-7088 - Ethan Moore - Paris, 2-3 April 2025
        Exchange rate on claim: 1 EUR = 1.08 USD
        2 April: lunch EUR 38.00, dinner EUR 47.50
        3 April: breakfast EUR 12.00, lunch EUR 29.00
        No alcohol. All receipts itemised.
        Purpose: supplier negotiations at La Defense. Hotel booked through the travel desk, room only. Ethan flew back
        to New York on the afternoon of 3 April.""", False),
    # Tokyo @150 JPY/USD: 12,000 JPY -> 80.00 ok.
    it(INTL_MEAL_OK, """\
        Meals - Tokyo, 19 May 2025 (single day in Tokyo, then on to Osaka by train - Osaka meals are on a separate claim)
        Exchange rate used: 1 USD = 150 JPY
        Lunch (ramen, Shinjuku): JPY 4,800
        Dinner (set menu with client, my share): JPY 7,200
        Employee: Daniel Ruiz""", True),
    # Tokyo 13,200 JPY -> 88.00 over.
    it(INTL_MEAL_OK, {
        "claim": "HG-INT-7215",
        "employee": "Hiroshi Tanaka (US office)",
        "city": "Tokyo",
        "exchange_rate": "1 USD = 150 JPY",
        "meals": [
            {"date": "2025-06-02", "desc": "breakfast", "amount_jpy": 1800},
            {"date": "2025-06-02", "desc": "lunch", "amount_jpy": 3400},
            {"date": "2025-06-02", "desc": "dinner", "amount_jpy": 8000},
        ],
        "alcohol": "none",
    }, False),
    # Mexico City @17 MXN/USD: D1 980 -> 57.65; D2 1,010 -> 59.41. ok.
    it(INTL_MEAL_OK, """\
        Claim HG-INT-7290 - Lucia Hernandez - Mexico City, 7-8 July 2025
        Rate on claim: 1 USD = 17.00 MXN
        7 Jul: lunch MXN 420, dinner MXN 560
        8 Jul: breakfast MXN 190, lunch MXN 380, dinner MXN 440
        Food and soft drinks only. Purpose: distributor training in Polanco. Hotel room only; all receipts itemised
        and paid by corporate card.""", True),
    # Mexico City 1,050 MXN -> 61.76 over.
    it(INTL_MEAL_OK, """\
        From: Brandon Lee
        Subject: Mexico City meals

        Hi, meals for my day in Mexico City on 21 August 2025: breakfast MXN 230, lunch MXN 360, dinner MXN 460.
        The claim uses 1 USD = 17.00 MXN. No alcohol. The dinner was at the hotel restaurant because the client
        meeting ran late. I flew home the next morning and the airport breakfast is on my next claim. Thanks!""", False),
    # Berlin day @1.08: 70 EUR -> 75.60 ok (80); Paris day 82 EUR -> 88.56 ok (90).
    it(INTL_MEAL_OK, {
        "claim": "HG-INT-7401",
        "employee": "Sarah Whitaker",
        "exchange_rate": "1 EUR = 1.08 USD",
        "days": [
            {"date": "2025-09-15", "city": "Berlin", "meals_eur": [18.00, 52.00]},
            {"date": "2025-09-16", "city": "Paris", "meals_eur": [11.50, 26.50, 44.00]},
        ],
        "alcohol": "none",
        "purpose": "Berlin partner workshop, then the Paris sales review",
        "travel_between_cities": "train Berlin-Paris on the evening of 15 September",
    }, True),
    # Paris 79 EUR -> 85.32 ok; Berlin 76 EUR -> 82.08 over (80).
    it(INTL_MEAL_OK, """\
        Claim HG-INT-7455 - Marco Silva - Paris then Berlin
        Rate: 1 EUR = 1.08 USD
        6 October 2025 (Paris): lunch EUR 31.00, dinner EUR 48.00
        7 October 2025 (Berlin): breakfast EUR 14.00, lunch EUR 22.00, dinner EUR 40.00
        No alcohol on either day. Marco took the early flight Paris-Berlin on 7 October and stayed with the Berlin
        engineering team until late, which is why dinner was at the office canteen's evening service.""", False),
    # Toronto @0.73: 128 CAD incl 30 wine -> 98 CAD -> 71.54 ok (75).
    it(INTL_MEAL_OK, """\
        Toronto, 4 November 2025 - claim HG-INT-7520 (Emily Zhang)
        Rate: 1 CAD = 0.73 USD
        Lunch: CAD 26.00
        Dinner: CAD 102.00, of which a bottle of wine shared with the client was CAD 30.00 (itemised receipt)
        Breakfast was skipped. Purpose: renewal meeting with Lakeshore Insurance. Emily flew back to Chicago the
        next morning; that day's meals are on a separate claim.""", True),
    # Toronto 105 CAD -> 76.65 over.
    it(INTL_MEAL_OK, {
        "claim": "HG-INT-7566",
        "employee": "Gabriel Dupont",
        "city": "Toronto",
        "exchange_rate": "1 CAD = 0.73 USD",
        "meals": [
            {"date": "2025-11-18", "desc": "breakfast", "amount_cad": 17.00},
            {"date": "2025-11-18", "desc": "lunch", "amount_cad": 33.00},
            {"date": "2025-11-18", "desc": "dinner", "amount_cad": 55.00},
        ],
        "alcohol": "none",
        "purpose": "Quarterly business review with the Toronto office",
        "employee_note": "Dinner was with the local team; I paid my own share.",
    }, False),
    # London 74 GBP -> 93.98 ok.
    it(INTL_MEAL_OK, """\
        Claim HG-INT-7610 - Priyanka Bose - London, 9 December 2025 (one day)
        Rate: 1 GBP = 1.27 USD
        Breakfast GBP 9.50, lunch GBP 18.50, dinner GBP 46.00 - all food and soft drinks.
        Note: "Dinner was at the hotel, it was the only place open after the late meeting." """, True),
    # ---- Aldermoor: approval level ------------------------------------------------------------------------------------
    # 650 ex VAT -> 780.
    it(ALDERMOOR_LEVEL, """\
        Purchase request PR-25-0412
        Requester: Parks Department, Greenway team
        Supplier: Hollins Garden Supplies
        Item: 10 replacement park bench slats and fixings
        Price: £650.00 excluding VAT; delivery free
        Need: repairs to benches in Millfield Park after storm damage
        No other orders with this supplier in the last six months.""", "budget_holder_only"),
    # 850 ex VAT -> 1,020.
    it(ALDERMOOR_LEVEL, {
        "request": "PR-25-0433",
        "department": "Libraries",
        "supplier": "Brightpage Books Ltd",
        "description": "Large-print books for the mobile library",
        "price_excluding_vat": 850.00,
        "delivery": 0.00,
        "related_orders": [],
        "budget_code": "LIB-4410 (mobile library stock)",
        "required_by": "2025-05-30",
        "justification": "Replacing worn large-print stock for the rural mobile library route; 120 titles chosen by "
                         "the outreach team.",
        "requester_note": "Under £1,000 so should just need my sign-off.",
    }, "head_of_service"),
    # (9200+150+600) ex VAT = 9,950 x 1.2 = 11,940.
    it(ALDERMOOR_LEVEL, """\
        Purchase request PR-25-0519 - Leisure Centre gym equipment
        Supplier: FitWorks Commercial
        Equipment: £9,200.00 excluding VAT
        Delivery: £150.00 excluding VAT
        Installation: £600.00 excluding VAT
        No previous orders with FitWorks for this refurbishment.
        Justification: replacing six treadmills and two rowing machines that failed their safety inspection in
        March. Three quotes obtained; FitWorks was the cheapest. Requested by the Leisure Centre manager, who notes:
        "The equipment itself is under £10,000." """, "finance_director"),
    # EUR 60,000 incl VAT x 0.85 = £51,000.
    it(ALDERMOOR_LEVEL, """\
        From: Head of Fleet Services
        Subject: Order for electric street sweeper

        We intend to order one electric compact street sweeper from Stadtreiniger GmbH (Germany). Their quote is
        EUR 60,000.00 including VAT, delivery and driver training. The order form states an exchange rate of
        1 EUR = 0.85 GBP. This is our only order with them. Please advise who needs to sign this off.""",
       "chief_executive"),
    # same supplier, same project, 43 days apart: 6,000 + 5,500 = 11,500.
    it(ALDERMOOR_LEVEL, {
        "request": "PR-25-0602",
        "department": "Libraries",
        "supplier": "Brightlines Furniture",
        "project": "Central Library refurbishment",
        "this_order": {"date": "2025-04-15", "total_including_vat": 5500.00, "items": "reading tables"},
        "related_orders": [
            {"date": "2025-03-03", "supplier": "Brightlines Furniture", "project": "Central Library refurbishment",
             "total_including_vat": 6000.00, "items": "shelving units"},
        ],
        "requester_note": "Second phase of the same refit; the first order was approved by my head of service.",
    }, "finance_director"),
    # same supplier and need, 69 days apart: not added; 6,000.
    it(ALDERMOOR_LEVEL, """\
        Purchase request PR-25-0377, raised 20 March 2025
        Supplier: Clearview Cleaning Supplies - quarterly order of cleaning consumables for council offices
        This order: £6,000.00 including VAT and delivery
        Previous order from the same supplier for the same need: 10 January 2025, £6,000.00 including VAT
        No other related orders.""", "head_of_service"),
    # different supplier for same project: not added; 7,500.
    it(ALDERMOOR_LEVEL, """\
        Project: Riverside playground renewal
        Order 1 (placed 2 June 2025): safety surfacing from Playsafe Surfaces Ltd, £4,000.00 including VAT
        Order 2 (this request, 16 June 2025): climbing frame from Timberplay Ltd, £7,500.00 including VAT, delivery and
        installation
        Budget holder: Parks Manager
        Both suppliers were chosen from the council's framework list. The playground is due to reopen on 1 August,
        so the Parks Manager has asked for approval this week.""", "head_of_service"),
    # £999.99 all-inclusive.
    it(ALDERMOOR_LEVEL, {
        "request": "PR-25-0711",
        "department": "Registrars",
        "supplier": "OfficeNest",
        "description": "Two ergonomic chairs",
        "total_including_vat_and_delivery": 999.99,
        "related_orders": [],
        "justification": "Occupational health assessment recommended adjustable chairs for two registrars with back "
                         "problems.",
        "budget_code": "REG-2010 (office equipment)",
        "required_by": "2025-07-31",
    }, "budget_holder_only"),
    # exactly £10,000.00.
    it(ALDERMOOR_LEVEL, """\
        Purchase request PR-25-0745
        Supplier: Signal Traffic Systems
        Description: replacement controller for the pedestrian crossing on Market Street
        Total: £10,000.00 including VAT, delivery and installation
        No related orders. Requester asks whether the head of service can approve it on their own.
        Justification: the existing controller failed twice in June and the crossing has been on manual control
        since. Highways team confirms Signal Traffic Systems is the only approved maintainer for this model.""",
       "finance_director"),
    # same supplier/project, all within 60 days of each other: 18,000 + 20,000 + 14,500 = 52,500.
    it(ALDERMOOR_LEVEL, """\
        Purchase request PR-25-0820 (raised 25 July 2025)
        Supplier: Northbank Digital - Customer Contact Centre telephony upgrade
        This order: headsets and licences, £14,500.00 including VAT
        Earlier orders with Northbank Digital for the same upgrade:
          2 June 2025 - call-routing software, £18,000.00 including VAT
          20 June 2025 - installation and configuration, £20,000.00 including VAT
        Requester note: each order is well under £50,000.""", "chief_executive"),
    # USD 1,300 incl tax x 0.79 = £1,027.
    it(ALDERMOOR_LEVEL, {
        "request": "PR-25-0861",
        "department": "IT",
        "supplier": "Calloway Software Inc. (USA)",
        "description": "Annual licence for planning-application software",
        "price": "USD 1,300.00 including all taxes",
        "exchange_rate_on_order": "1 USD = 0.79 GBP",
        "related_orders": [],
        "justification": "Renewal of the licence used by the planning team to process applications online.",
        "requester_note": "It's only $1,300, which is well under £1,000... I think?",
    }, "head_of_service"),
    # same supplier, different need: not added; 800.
    it(ALDERMOOR_LEVEL, """\
        Purchase request PR-25-0903, 8 September 2025
        Supplier: Hollins Garden Supplies
        This order: £800.00 including VAT - bulbs and compost for the Oakfield Primary School garden project
        Other recent order with Hollins: 22 August 2025, £700.00 including VAT - hedge trimmer blades for the parks
        maintenance team (a different budget and need)""", "budget_holder_only"),
    # ---- Aldermoor: finance director needed? -------------------------------------------------------------------------
    # 8,500 ex VAT -> 10,200.
    it(ALDERMOOR_FD, """\
        Purchase request PR-25-1004
        Supplier: Apex Lighting
        Description: LED retrofit of the council depot workshop
        Price: £8,500.00 excluding VAT, delivery and installation included in that price
        Related orders: none
        Justification: the workshop's fluorescent tubes are end-of-life; the retrofit is expected to save about
        £2,300 a year in electricity. Requested by the Depot Manager, who has asked his head of service to sign.""", True),
    # 8,300 ex VAT -> 9,960.
    it(ALDERMOOR_FD, {
        "request": "PR-25-1011",
        "supplier": "Apex Lighting",
        "description": "LED retrofit, Town Hall basement car park",
        "price_excluding_vat": 8300.00,
        "delivery_and_installation": "included",
        "related_orders": [],
        "justification": "The basement car park lighting failed the annual safety check in August.",
        "budget_code": "FAC-7720 (Town Hall maintenance)",
    }, False),
    # 4 x 2,600 incl VAT within 3 weeks, same supplier and need: 10,400.
    it(ALDERMOOR_FD, """\
        Orders from TechDirect for laptops for the new Housing Benefits team (same team, same need):
          3 November 2025 - 2 laptops, £2,600.00 including VAT
          10 November 2025 - 2 laptops, £2,600.00 including VAT
          17 November 2025 - 2 laptops, £2,600.00 including VAT
          24 November 2025 (this request) - 2 laptops, £2,600.00 including VAT
        The requester says each order is "small enough for my head of service to approve".""", True),
    # two orders 61 days apart: not added; 5,200 each.
    it(ALDERMOOR_FD, {
        "request": "PR-25-1102",
        "supplier": "Greenline Grounds Equipment",
        "need": "ride-on mowers for the parks fleet",
        "this_order": {"date": "2025-07-06", "total_including_vat": 5200.00},
        "related_orders": [{"date": "2025-05-06", "supplier": "Greenline Grounds Equipment",
                            "need": "ride-on mowers for the parks fleet", "total_including_vat": 5200.00}],
    }, False),
    # two orders exactly 60 days apart: added; 10,400.
    it(ALDERMOOR_FD, """\
        Purchase request PR-25-1098, dated 5 July 2025
        Supplier: Greenline Grounds Equipment - ride-on mower for the parks fleet, £5,200.00 including VAT
        Earlier order with Greenline for the parks fleet mowers: 6 May 2025, £5,200.00 including VAT
        No other related orders.
        Requester note: "Second mower for the same fleet replacement - the first one was approved by my head of
        service in May." """, True),
    # different suppliers, same project: not added.
    it(ALDERMOOR_FD, """\
        Project: Westgate community centre kitchen refit
        This request: catering equipment from ChefLine Ltd, £6,000.00 including VAT and installation
        Also on the project: worktops and units from Mason Kitchens, ordered two weeks ago, £7,000.00 including VAT
        Total project budget: £15,000.00
        Both suppliers were selected through separate quotes; ChefLine does not supply worktops and Mason Kitchens
        does not supply catering equipment.""", False),
    # EUR 12,000 incl VAT x 0.85 = 10,200.
    it(ALDERMOOR_FD, {
        "request": "PR-25-1140",
        "supplier": "Nordic Signage AB (Sweden)",
        "description": "Wayfinding signs for the new transport interchange",
        "price": "EUR 12,000.00 including VAT and delivery",
        "exchange_rate_on_order": "1 EUR = 0.85 GBP",
        "related_orders": [],
        "justification": "Signs must match the regional transport authority's design standard; only two suppliers "
                         "quoted.",
        "required_by": "2025-10-15",
    }, True),
    # EUR 11,500 x 0.85 = 9,775.
    it(ALDERMOOR_FD, """\
        Quote from Lumen Architectural BV (Netherlands) for decorative lighting in the civic square: EUR 11,500.00
        including VAT, delivery and installation. Exchange rate on the order: 1 EUR = 0.85 GBP. The council has
        never ordered from Lumen before.
        Requested by the Town Centre Manager for the winter lights programme; funded from the events budget.
        Installation would be done in November by Lumen's own crew.""", False),
    # 9,800 incl VAT + 250 delivery = 10,050.
    it(ALDERMOOR_FD, """\
        Purchase request PR-25-1188
        Supplier: Civic Furniture Co
        Council chamber chairs: £9,800.00 including VAT
        Delivery: £250.00 including VAT (charged separately on the same order)
        Related orders: none
        Requester note: "Chairs are under £10k, so head of service only."
        Justification: 40 chairs for the council chamber, replacing seating from 1998 that fails current fire
        safety standards.""", True),
    # 9,999.99 all-inclusive.
    it(ALDERMOOR_FD, {
        "request": "PR-25-1203",
        "supplier": "SafeRoute Barriers",
        "description": "Temporary crowd barriers for the winter market",
        "total_including_vat_delivery_installation": 9999.99,
        "related_orders": [],
        "justification": "Crowd barriers for the six-week winter market, required by the event safety plan.",
        "budget_code": "EVT-3300 (winter market)",
        "required_by": "2025-11-20",
    }, False),
    # (7,000 + 1,500) ex VAT x 1.2 = 10,200.
    it(ALDERMOOR_FD, """\
        Purchase request PR-25-1219 - CCTV for the Eastfield car park
        Supplier: Sentinel Security Systems
        Cameras and recorder: £7,000.00 excluding VAT
        Installation: £1,500.00 excluding VAT
        No related orders.
        Justification: repeated vehicle break-ins in the car park; the police crime prevention officer recommended
        CCTV at the entrance and on both levels. Requested by the Parking Services Manager.""", True),
    # ---- Northgate: which rule -----------------------------------------------------------------------------------------
    # all fine: Mon-Wed, 38 days, Chicago $165, economy 2h10, no alcohol.
    it(NORTHGATE_RULE, {
        "claim": "NC-25-0210",
        "employee": "Lauren Fitch",
        "trip": "Chicago, Monday 10 - Wednesday 12 February 2025",
        "travel_approval_covers": "2025-02-10 to 2025-02-12",
        "submitted": "2025-03-20",
        "lines": [
            {"date": "2025-02-10", "item": "Flight Boston-Chicago, economy, 2h10", "amount": 248.00},
            {"date": "2025-02-10", "item": "Hotel Chicago, room rate $165/night x 2 nights + taxes", "amount": 378.40},
            {"date": "2025-02-11", "item": "Dinner (food and soft drinks)", "amount": 38.60},
            {"date": "2025-02-12", "item": "Flight Chicago-Boston, economy, 2h25", "amount": 231.00},
        ],
    }, "no_rule_broken"),
    # Boston $259/night.
    it(NORTHGATE_RULE, """\
        Claim NC-25-0388 - Ravi Menon - Boston client workshop, Monday 7 to Wednesday 9 April 2025
        Approval covers 7-9 April. Submitted 14 April 2025.
        - Train New York-Boston, 7 Apr: $89.00
        - Hotel Boston, 7 and 8 Apr: room rate $259.00 per night + taxes
        - Lunch, 8 Apr: $17.50
        - Train Boston-New York, 9 Apr: $89.00
        Ravi's note: "Conference rate hotels were all booked." """, "rule_2_hotel_rate"),
    # Thu-Sun, approval only Thu-Fri: Sat/Sun expenses.
    it(NORTHGATE_RULE, """\
        Claim NC-25-0511 - Denver supplier audit
        Employee: Kara Jennings. Travel approval covers Thursday 5 and Friday 6 June 2025.
        Lines:
          05 Jun  Flight Chicago-Denver, economy, 2h35 ............ $212.00
          05 Jun  Hotel Denver, night of 5 Jun, $150 room rate ..... $171.00
          06 Jun  Hotel Denver, night of 6 Jun, $150 room rate ..... $171.00
          07 Jun  Hotel Denver, night of 7 Jun, $150 room rate ..... $171.00
          07 Jun  Lunch and dinner ................................. $44.20
          08 Jun  Flight Denver-Chicago, economy, 2h15 ............ $198.00
        Submitted 12 June 2025.""", "rule_3_weekend"),
    # expense 15 Jan, submitted 20 Mar: 64 days.
    it(NORTHGATE_RULE, {
        "claim": "NC-25-0302",
        "employee": "Tobias Wren",
        "trip": "Atlanta, day trip, Wednesday 15 January 2025",
        "travel_approval_covers": "2025-01-15",
        "submitted": "2025-03-20",
        "lines": [
            {"date": "2025-01-15", "item": "Flight Charlotte-Atlanta return, economy, 1h20 each way", "amount": 264.00},
            {"date": "2025-01-15", "item": "Taxi airport to client and back", "amount": 58.00},
            {"date": "2025-01-15", "item": "Lunch", "amount": 16.90},
        ],
    }, "rule_1_late"),
    # beers on dinner bill.
    it(NORTHGATE_RULE, """\
        Claim NC-25-0602 - Sienna Park - Dallas, Tuesday 22 to Thursday 24 April 2025 (approval covers all three days),
        submitted 30 April 2025.
        22 Apr  Flight Atlanta-Dallas, economy, 2h05 .......... $186.00
        22 Apr  Hotel Dallas, 2 nights at $149 + taxes ......... $334.80
        23 Apr  Dinner: burger, salad, 2 draft beers ($14.00) .. $52.40
        24 Apr  Flight Dallas-Atlanta, economy, 1h55 .......... $179.00""", "rule_4_alcohol"),
    # business class 7h05, no CFO approval.
    it(NORTHGATE_RULE, """\
        From: Jonah Albrecht
        Subject: Expense claim - London client kick-off (13-15 October 2025)

        Hi, claim attached. The client paid for my hotel. Lines: flight New York JFK-London Heathrow, business class,
        scheduled 7h05, $4,280.00; return flight London-New York, business class, 8h10, $4,020.00; Heathrow Express
        $42.00; lunches $61.00 in total. Travel approval covers 13-15 October. I flew business because I had to present
        the morning I landed. I didn't get CFO sign-off as it was booked last-minute. Submitted today, 20 October.""",
       "rule_5_flight_class"),
    # premium economy 6h50, weekend covered, hotel paid by client.
    it(NORTHGATE_RULE, {
        "claim": "NC-25-0917",
        "employee": "Amara Nwosu",
        "trip": "London programme launch, Monday 8 - Monday 15 September 2025",
        "travel_approval_covers": "2025-09-08 to 2025-09-15, including the weekend of 13-14 September",
        "submitted": "2025-09-22",
        "hotel": "paid directly by the client, not claimed",
        "lines": [
            {"date": "2025-09-08", "item": "Flight Boston-London, premium economy, 6h50", "amount": 1480.00},
            {"date": "2025-09-13", "item": "Lunch and dinner (Saturday workshop day)", "amount": 71.40},
            {"date": "2025-09-14", "item": "Lunch (Sunday)", "amount": 24.10},
            {"date": "2025-09-15", "item": "Flight London-Boston, premium economy, 7h40", "amount": 1395.00},
        ],
    }, "no_rule_broken"),
    # in-room movie on folio.
    it(NORTHGATE_RULE, """\
        Claim NC-25-1240 - Phoenix, Tuesday 9 to Wednesday 10 December 2025 (approval 9-10 Dec), submitted 12 December.
        Hotel folio (Desert Palms Inn), 1 night:
          Room rate ................. $139.00
          Occupancy tax ............. $17.79
          In-room movie ............. $14.99
          Total charged ............. $171.78 (claimed in full)
        Also claimed: flights, economy, 1h50 each way, $244.00; dinner $31.80.""", "rule_6_personal"),
    # laundry on 3-night trip.
    it(NORTHGATE_RULE, """\
        Claim NC-25-0844, Desmond Clarke, Columbus plant visit, Monday 18 to Thursday 21 August 2025 (3 nights).
        Travel approval covers 18-21 August. Submitted 25 August 2025.
        - Mileage to airport and back: $40.20
        - Flights Newark-Columbus return, economy, 1h45 each way: $312.00
        - Hotel, 3 nights at $158 + taxes: $541.20
        - Hotel laundry service, 19 August: $32.00
        - Meals: $118.50 over three days, no alcohol""", "rule_6_personal"),
    # 7 nights, laundry allowed, weekend approved, submitted day 60 after first expense.
    it(NORTHGATE_RULE, {
        "claim": "NC-25-0733",
        "employee": "Farida Okonkwo",
        "trip": "Portland warehouse migration, Monday 14 - Monday 21 July 2025 (7 nights)",
        "travel_approval_covers": "2025-07-14 to 2025-07-21, weekend included",
        "submitted": "2025-09-12",
        "lines": [
            {"date": "2025-07-14", "item": "Flight Denver-Portland, economy, 2h40", "amount": 226.00},
            {"date": "2025-07-14", "item": "Hotel Portland, 7 nights at $168 + taxes", "amount": 1317.12},
            {"date": "2025-07-19", "item": "Hotel laundry service", "amount": 38.00},
            {"date": "2025-07-20", "item": "Meals (Sunday)", "amount": 42.30},
            {"date": "2025-07-21", "item": "Flight Portland-Denver, economy, 2h30", "amount": 219.00},
        ],
    }, "no_rule_broken"),
    # expense 3 Mar, submitted 5 May: 63 days; also wine.
    it(NORTHGATE_RULE, """\
        Claim NC-25-0455 - Holly Barnes - Philadelphia, Monday 3 March 2025 (day trip, approved)
        Submitted: 5 May 2025
        - Train New York-Philadelphia return: $118.00
        - Lunch with client contact: $64.00 (includes one glass of wine, $12.00)
        - Taxi: $21.40
        Holly's note: "Sorry this is late, I was on leave in April." """, "rule_1_late"),
    # SF $255/night and a beer: lowest is rule 2.
    it(NORTHGATE_RULE, """\
        Claim NC-25-0690 - Wesley Tran - San Francisco, Tuesday 17 to Thursday 19 June 2025 (approval covers all
        three days), submitted 23 June 2025.
        Flight Seattle-SFO, economy, 2h05: $198.00
        Hotel SF, 2 nights, room rate $255.00 per night + taxes: $588.50
        Dinner 18 Jun: $47.00 (includes one IPA, $9.00)
        Flight SFO-Seattle, economy, 2h10: $204.00""", "rule_2_hotel_rate"),
    # stayed to Saturday 15 Nov, approval Mon-Fri.
    it(NORTHGATE_RULE, {
        "claim": "NC-25-1122",
        "employee": "Bianca Russo",
        "trip": "Nashville, Monday 10 - Friday 14 November 2025",
        "travel_approval_covers": "2025-11-10 to 2025-11-14",
        "submitted": "2025-11-19",
        "lines": [
            {"date": "2025-11-10", "item": "Flight Chicago-Nashville, economy, 1h45", "amount": 172.00},
            {"date": "2025-11-10", "item": "Hotel, 4 nights at $162 + taxes", "amount": 745.20},
            {"date": "2025-11-15", "item": "Taxi to airport", "amount": 46.00},
            {"date": "2025-11-15", "item": "Flight Nashville-Chicago, economy, 1h50", "amount": 165.00},
        ],
        "employee_note": "Stayed an extra night at a friend's place, so no hotel claimed for the 14th.",
    }, "rule_3_weekend"),
    # ---- Corbel: invoice outcome ---------------------------------------------------------------------------------------
    # bolts 0.42=0.42; brackets 3.15 vs 3.10 = +1.6%; qty ok.
    it(CORBEL_OUTCOME, {
        "supplier": "Kestrel Fixings Ltd",
        "invoice_number": "KF-20931",
        "po_number": "4500123",
        "po_status": "open",
        "po_supplier": "Kestrel Fixings Ltd",
        "lines": [
            {"item": "M8 hex bolts", "qty_invoiced": 200, "unit_price": 0.42, "po_unit_price": 0.42, "qty_received": 200},
            {"item": "Steel angle brackets", "qty_invoiced": 50, "unit_price": 3.15, "po_unit_price": 3.10, "qty_received": 50},
        ],
        "previously_paid_invoices_from_supplier": ["KF-20877", "KF-20902"],
    }, "approve_payment"),
    # 12.80 vs 12.50 = +2.4%.
    it(CORBEL_OUTCOME, """\
        Invoice 55-0912 from Ardent Plastics
        PO quoted: 4500177 (open, raised for Ardent Plastics)
        Line 1: 400 x injection-moulded housings at $12.80 each (PO price $12.50; goods receipt: 400 received)
        Line 2: 400 x gaskets at $0.35 each (PO price $0.35; 400 received)
        Invoice number not previously paid. Sales tax calculated at the correct rate.""", "hold_price"),
    # 25.50 vs 25.00 = exactly 2%.
    it(CORBEL_OUTCOME, """\
        AP check - invoice TR-7710 from Tanner Rubber Co
        PO 4500201 - open - supplier Tanner Rubber Co
        Lines:
          Conveyor belt sections: invoiced 12 @ $25.50; PO price $25.00; received 12
          Belt fasteners: invoiced 24 @ $4.00; PO price $4.00; received 24
        Paid-invoice history for Tanner: TR-7655, TR-7689.""", "approve_payment"),
    # invoiced 120, received 100.
    it(CORBEL_OUTCOME, {
        "supplier": "Midland Castings",
        "invoice_number": "MC-4418",
        "po_number": "4500215",
        "po_status": "open",
        "po_supplier": "Midland Castings",
        "lines": [
            {"item": "Pump housings, grey iron", "qty_invoiced": 120, "unit_price": 48.00, "po_unit_price": 48.00,
             "qty_received": 100},
        ],
        "note_from_supplier": "Remaining 20 units shipped yesterday.",
        "previously_paid_invoices_from_supplier": ["MC-4390"],
    }, "hold_quantity"),
    # no PO quoted.
    it(CORBEL_OUTCOME, """\
        Invoice 2025-118 from Brightwater Facilities Services
        "For emergency repair of the roof drain above bay 4, call-out and 6 hours labour: $1,140.00"
        PO number: (blank) - the maintenance supervisor says he phoned them directly and will "sort the paperwork".
        Goods/services receipt: confirmed by the supervisor. Not previously paid.""", "hold_no_valid_po"),
    # invoice number already paid.
    it(CORBEL_OUTCOME, """\
        Invoice INV-7781 from Harlow Abrasives, dated 28 April 2025, quoting PO 4500166 (open, Harlow Abrasives)
        Line: 300 sanding discs @ $1.20 (PO $1.20), 300 received
        AP system: invoice INV-7781 from Harlow Abrasives was paid on 2 March 2025 (same amount). The supplier says this
        copy is "a reminder". """, "reject_duplicate"),
    # PO closed.
    it(CORBEL_OUTCOME, {
        "supplier": "Orbital Bearings",
        "invoice_number": "OB-10447",
        "po_number": "4500098",
        "po_status": "closed on 2025-05-31 (fully invoiced and paid)",
        "po_supplier": "Orbital Bearings",
        "lines": [
            {"item": "6204 ball bearings", "qty_invoiced": 60, "unit_price": 2.10, "po_unit_price": 2.10, "qty_received": 60},
        ],
        "previously_paid_invoices_from_supplier": ["OB-10312", "OB-10388"],
    }, "hold_no_valid_po"),
    # qty over and price over: quantity comes first.
    it(CORBEL_OUTCOME, """\
        Invoice SW-3320 from Sutton Wire & Cable
        PO 4500240, open, supplier Sutton Wire & Cable
        Line 1: 1,000 m control cable @ $1.90/m (PO $1.80/m) - goods receipt 800 m
        Line 2: 50 cable glands @ $0.95 (PO $0.95) - received 50
        Not previously paid.""", "hold_quantity"),
    # partial invoice, lower price.
    it(CORBEL_OUTCOME, """\
        Invoice GP-0571 from Greaves Packaging, quoting PO 4500252 (open; raised for Greaves Packaging)
        Line: double-wall cartons, 80 invoiced @ $2.05 each. PO: 150 cartons @ $2.10. Goods receipt: 100 received so far.
        The supplier notes that the balance will be invoiced when the rest is delivered. Invoice number not previously
        paid.""", "approve_payment"),
    # PO belongs to another supplier.
    it(CORBEL_OUTCOME, {
        "supplier": "Pinnacle Hydraulics",
        "invoice_number": "PH-2290",
        "po_number": "4500231",
        "po_status": "open",
        "po_supplier": "Redfern Fluid Power",
        "lines": [
            {"item": "Hydraulic hoses, 1 m", "qty_invoiced": 40, "unit_price": 18.50, "po_unit_price": 18.50,
             "qty_received": 40},
        ],
        "previously_paid_invoices_from_supplier": [],
        "buyer_comment": "Pinnacle is Redfern's distributor I think?",
    }, "hold_no_valid_po"),
    # duplicate (and price over): duplicate first.
    it(CORBEL_OUTCOME, """\
        Invoice ZL-8804 from Zenith Lubricants
        PO 4500190 (open, Zenith Lubricants)
        Line: 20 drums hydraulic oil @ $96.00 (PO price $90.00), 20 received
        Paid history: ZL-8804 from Zenith Lubricants paid on 14 July 2025 at $90.00 per drum. This copy has a new unit
        price and the supplier's note "revised invoice - price increase". """, "reject_duplicate"),
    # 857.50 vs 840.00 = +2.08%.
    it(CORBEL_OUTCOME, """\
        Invoice AM-1183 from Atlas Motors
        PO 4500263, open, supplier Atlas Motors
        Line 1: 2 x 7.5 kW induction motors @ $857.50 each (PO price $840.00; received 2)
        Line 2: delivery, 1 @ $45.00 (PO $45.00; received)
        Invoice number not seen before.
        Supplier's covering note: "Copper surcharge applied in line with market prices this quarter."
        Goods receipt GR-88412 signed by stores on 3 November 2025.""", "hold_price"),
    # ---- Rowan: client entertainment ---------------------------------------------------------------------------------
    # 4 attendees, 398 -> 99.50/head; alcohol 80/398 = 20.1%; all named.
    it(ROWAN_OUTCOME, {
        "claim": "RP-ENT-3310",
        "date": "2025-02-11",
        "venue": "Lindenhof Grill, Chicago",
        "attendees": [
            {"name": "Carla Mendes", "employer": "Harbinger Logistics (client)"},
            {"name": "Peter Olafsson", "employer": "Harbinger Logistics (client)"},
            {"name": "Tessa Ward", "employer": "Rowan Partners"},
            {"name": "Imran Qureshi", "employer": "Rowan Partners"},
        ],
        "total_incl_tax_and_tip": 398.00,
        "of_which_alcohol": 80.00,
        "partner_preapproval": None,
    }, "approve"),
    # 3 attendees, 402 -> 134/head.
    it(ROWAN_OUTCOME, """\
        Entertainment claim RP-ENT-3342 - lunch, 6 March 2025, The Oyster Room, Boston
        Attendees: Hugo Bernard (Rowan Partners), Alicia Chen (CFO, Delmar Biotech - prospect), Sam Rourke (Head of
        Finance, Delmar Biotech - prospect)
        Bill: $402.00 including tax and tip; no alcohol (everyone was driving).
        No partner approval was sought.""", "approve_reduced"),
    # 4 attendees, 300 -> 75/head; alcohol 110/300 = 36.7%.
    it(ROWAN_OUTCOME, """\
        From: Natalie Brooks
        Subject: Client drinks and dinner - claim RP-ENT-3365

        Hi Finance, dinner on 20 March with our client Westmere Energy: attendees were Graham Holt and Yusra Malik
        (both Westmere Energy), my colleague Dev Anand (Rowan) and me. The total was $300.00 including tax and tip. The
        itemised bill shows $110.00 of wine and cocktails. Please reimburse the full amount.
        Thanks, Natalie Brooks (Rowan Partners)""", "approve_reduced"),
    # names missing.
    it(ROWAN_OUTCOME, {
        "claim": "RP-ENT-3401",
        "date": "2025-04-02",
        "venue": "Casa Verde, San Diego",
        "attendees_as_entered": "Jane Ko (CFO, Meridian Health - client), plus two people from their procurement "
                                "team, and me (Liam Foster, Rowan Partners)",
        "attendee_count": 4,
        "purpose": "Renewal discussion for the 2026 audit engagement",
        "total_incl_tax_and_tip": 340.00,
        "of_which_alcohol": 60.00,
        "partner_preapproval": None,
    }, "return_for_details"),
    # internal-only team dinner.
    it(ROWAN_OUTCOME, """\
        Entertainment claim RP-ENT-3428 - 17 April 2025
        "Team dinner to celebrate closing the Q1 audit engagement."
        Attendees (all Rowan Partners): Olivia Grant, Marcus Reed, Priya Shah, Tom Becker, Hannah Lee, Chris Duval
        Total: $564.00 including tax and tip, of which alcohol $120.00
        Note from claimant: "The client was very happy with the work so I'm treating this as client-related." """,
       "reject_internal_only"),
    # 12 attendees, 1,380 -> 115/head; alcohol 21.7%; no pre-approval.
    it(ROWAN_OUTCOME, """\
        Claim RP-ENT-3455 - client appreciation dinner, 15 May 2025, Ember & Oak, Denver
        12 attendees, all named with employers on the attached list: 7 from Cobalt Mining (client), 5 from Rowan.
        Total: $1,380.00 including tax and tip; alcohol $300.00.
        Partner approval: none requested. "I didn't realise we needed it for a dinner." """,
       "reject_no_preapproval"),
    # 10 attendees, exactly 1,000 (not more than 1,000); 100/head; alcohol 25%.
    it(ROWAN_OUTCOME, {
        "claim": "RP-ENT-3480",
        "date": "2025-06-06",
        "venue": "Blue Harbor Kitchen, Seattle",
        "attendees": "10 named on the attached list with employers: 6 from Pacific Rail Co (client), 4 from Rowan",
        "total_incl_tax_and_tip": 1000.00,
        "of_which_alcohol": 250.00,
        "partner_preapproval": None,
        "purpose": "Dinner after the year-end planning workshop with the client's finance team",
        "claimant": "Maya Sato, Rowan Partners",
    }, "approve"),
    # 2 attendees, 240 -> 120/head; alcohol 72/240 = 30.0%.
    it(ROWAN_OUTCOME, """\
        Claim RP-ENT-3502
        Dinner on 12 June 2025 at Fiore, New York, with Daniel Osei (Managing Director, Kessler Capital - prospective
        client). Attendees: Daniel Osei (Kessler Capital) and Rebecca Lyons (Rowan Partners).
        Total including tax and tip: $240.00. Itemised bill: food $168.00, wine $72.00.
        No partner approval sought.""", "approve"),
    # names incomplete (and over per-head): return comes first.
    it(ROWAN_OUTCOME, """\
        Entertainment claim RP-ENT-3533 - lunch, 26 June 2025
        Attendees: Fiona Park (Director, Tillman Foods - client), "a colleague of hers from their legal team", and
        Aaron Kim (Rowan Partners)
        Total: $420.00 including tax and tip, of which alcohol $60.00
        Partner approval: not needed (under $1,000)""", "return_for_details"),
    # internal farewell dinner.
    it(ROWAN_OUTCOME, {
        "claim": "RP-ENT-3560",
        "date": "2025-07-10",
        "description": "Farewell dinner for Susan Hart, who is leaving after 12 years",
        "attendees": [
            {"name": "Susan Hart", "employer": "Rowan Partners"},
            {"name": "George Little", "employer": "Rowan Partners"},
            {"name": "Meera Iyer", "employer": "Rowan Partners"},
            {"name": "Paul Novak", "employer": "Rowan Partners"},
        ],
        "total_incl_tax_and_tip": 310.00,
        "of_which_alcohol": 70.00,
        "partner_preapproval": "Partner Jim Cole approved on 2025-07-01",
    }, "reject_internal_only"),
    # 1,150 total, partner approval given the day after.
    it(ROWAN_OUTCOME, """\
        Claim RP-ENT-3591 - board dinner with client Halvorsen Shipping, 4 September 2025
        10 attendees, named with employers (6 Halvorsen Shipping, 4 Rowan Partners).
        Total: $1,150.00 including tax and tip; alcohol $280.00.
        Partner approval: email from partner Grace Whitman dated 5 September 2025: "Approved - sorry I missed your
        request before the dinner." """, "reject_no_preapproval"),
    # 5 attendees, 500 -> 100/head; alcohol 160/500 = 32%.
    it(ROWAN_OUTCOME, """\
        Claim RP-ENT-3620 - dinner, 18 September 2025, Rowan and prospective client Brightfield Schools Trust
        Attendees: Mark Ellison and Joy Adebayo (Brightfield Schools Trust); Nina Cole, Raj Patel and Leo Grant (Rowan
        Partners).
        Bill: $500.00 including tax and tip. Itemised: food and soft drinks $340.00, wine $160.00.
        No partner approval sought.""", "approve_reduced"),
    # 12 attendees, 1,240 -> 103.33/head; alcohol 24.2%; pre-approved a week before.
    it(ROWAN_OUTCOME, {
        "claim": "RP-ENT-3655",
        "date": "2025-10-09",
        "venue": "The Granary, Minneapolis",
        "attendees": "12 named with employers: 8 from Norland Foods (client), 4 from Rowan Partners",
        "total_incl_tax_and_tip": 1240.00,
        "of_which_alcohol": 300.00,
        "partner_preapproval": "Partner Helen Ross approved by email on 2025-10-02",
        "purpose": "Celebration dinner after the client's successful listing on the stock exchange",
        "claimant": "Ethan Cole, Rowan Partners",
    }, "approve"),
    # ---- Fenwick: claims desk decision ---------------------------------------------------------------------------------
    # all fine.
    it(FENWICK_DECISION, {
        "claim": "FL-25-2210",
        "employee": "Anouk de Vries",
        "submitted": "2025-04-30",
        "lines": [
            {"date": "2025-04-08", "item": "Hotel Lyon, 2 nights at EUR 140.00", "amount": 280.00, "receipt": True},
            {"date": "2025-04-09", "item": "Meals (day total)", "amount": 46.50, "receipt": True},
            {"date": "2025-04-10", "item": "Taxi to station", "amount": 28.00, "receipt": True},
        ],
        "previously_paid_lines_matching": [],
    }, 0),
    # hotel 172/night.
    it(FENWICK_DECISION, """\
        Claim FL-25-2244 - Matteo Greco - Milan, 13-15 May 2025 - submitted 20 May 2025
        13 May  Hotel Milan, 2 nights at EUR 172.00 (receipt) .......... EUR 344.00
        13 May  Taxi airport-hotel (receipt) ............................ EUR 36.00
        14 May  Meals (receipts) ........................................ EUR 41.20
        15 May  Train to airport (receipt) .............................. EUR 13.00
        No lines match anything already paid.""", 1),
    # taxi 27 no receipt.
    it(FENWICK_DECISION, """\
        Claim FL-25-2301, Sophie Laurent, Brussels day trip 3 June 2025, submitted 6 June 2025:
        - Train Paris-Brussels return: EUR 118.00 (e-ticket)
        - Taxi Brussels-Midi to client: EUR 27.00 - no receipt, "driver's card machine was broken"
        - Lunch: EUR 19.50 - no receipt
        Nothing previously paid matches these lines.""", 2),
    # latest expense 14 Mar, submitted 17 Jun = 95 days.
    it(FENWICK_DECISION, {
        "claim": "FL-25-2330",
        "employee": "Jonas Weber",
        "submitted": "2025-06-17",
        "lines": [
            {"date": "2025-03-12", "item": "Hotel Hamburg, 2 nights at EUR 129.00", "amount": 258.00, "receipt": True},
            {"date": "2025-03-13", "item": "Meals", "amount": 38.00, "receipt": True},
            {"date": "2025-03-14", "item": "Taxi to airport", "amount": 31.00, "receipt": True},
        ],
        "previously_paid_lines_matching": [],
        "employee_note": "Sorry, forgot to submit this one.",
    }, 3),
    # dinner 35 no receipt + taxi 44 over cap: missing receipt outranks.
    it(FENWICK_DECISION, """\
        Claim FL-25-2356 - Elena Petrova - Vienna, 24-25 June 2025 - submitted 30 June 2025
        Hotel Vienna, 1 night, EUR 138.00 (receipt)
        Dinner 24 June, EUR 35.00 (receipt lost)
        Taxi hotel to conference centre with luggage, EUR 44.00 (receipt)
        Breakfast 25 June, EUR 9.50 (no receipt)
        No duplicates found.""", 2),
    # duplicate hotel line.
    it(FENWICK_DECISION, """\
        Claim FL-25-2389 - Lars Nilsson - submitted 2 July 2025
        1. 06 May 2025 - Hotel Aurora, Copenhagen, 1 night - EUR 128.00 (receipt)
        2. 07 May 2025 - Meals - EUR 33.40 (receipts)
        3. 07 May 2025 - Taxi - EUR 22.00 (receipt)
        Finance system check: line 1 (06 May 2025, Hotel Aurora, EUR 128.00) was already paid on claim FL-25-1182.""",
       3),
    # taxi exactly 20.00 without receipt (not over 20); rest fine.
    it(FENWICK_DECISION, {
        "claim": "FL-25-2412",
        "employee": "Claire Dubois",
        "submitted": "2025-07-25",
        "lines": [
            {"date": "2025-07-08", "item": "Hotel Strasbourg, 1 night", "amount": 149.00, "receipt": True},
            {"date": "2025-07-08", "item": "Taxi station to hotel", "amount": 20.00, "receipt": False},
            {"date": "2025-07-09", "item": "Meals (day total)", "amount": 50.00, "receipt": True},
        ],
        "previously_paid_lines_matching": [],
    }, 0),
    # meals 53.40 in one day.
    it(FENWICK_DECISION, """\
        Claim FL-25-2450 - Pieter Janssen - Rotterdam, 22-23 September 2025 - submitted 1 October 2025
        22 Sep: hotel EUR 132.00 (receipt); meals EUR 53.40 (lunch 18.90 + dinner 34.50, receipts)
        23 Sep: meals EUR 12.00 (receipt); taxi EUR 26.00 (receipt)
        No lines match earlier claims.""", 1),
    # latest expense 29 Aug, submitted 27 Nov = exactly 90 days.
    it(FENWICK_DECISION, """\
        Claim FL-25-2498, Ines Moreau, Bordeaux supplier visit 27-29 August 2025. Submitted 27 November 2025.
        27 Aug - hotel, 2 nights at EUR 118.00, receipt - EUR 236.00
        28 Aug - meals, receipts - EUR 44.10
        29 Aug - taxi to airport, receipt - EUR 34.00
        No duplicates.""", 0),
    # duplicate + missing receipt: reject.
    it(FENWICK_DECISION, {
        "claim": "FL-25-2533",
        "employee": "Tomasz Zielinski",
        "submitted": "2025-10-14",
        "lines": [
            {"date": "2025-09-23", "item": "Taxi, Warsaw airport", "amount": 38.00, "receipt": False},
            {"date": "2025-09-23", "item": "Hotel Polonia, 1 night", "amount": 121.00, "receipt": True},
            {"date": "2025-09-24", "item": "Meals", "amount": 29.00, "receipt": True},
        ],
        "previously_paid_lines_matching": [
            {"claim": "FL-25-2467", "date": "2025-09-23", "merchant": "Hotel Polonia", "amount": 121.00},
        ],
    }, 3),
    # taxi 46 with receipt.
    it(FENWICK_DECISION, """\
        Claim FL-25-2560 - Giulia Conti - Turin, 21 October 2025 (day trip) - submitted 24 October 2025
        - Taxi Turin airport to client site (receipt): EUR 46.00
        - Lunch (receipt): EUR 22.50
        - Taxi client site to airport (receipt): EUR 39.00
        Nothing matches previously paid lines.""", 1),
    # ---- Pell & Crane: mileage band -----------------------------------------------------------------------------------
    # Tue: (38-12)+(38-12)=52 mi x 0.45 = 23.40 + parking 4.50 = 27.90.
    it(MILEAGE_BAND, """\
        Mileage claim - Ruth Ellison (normal working days Mon-Fri; usual one-way commute 12 miles)
        Tuesday 11 February 2025:
          Home to Harwood Engineering, Reading - 38 miles
          Harwood Engineering to home - 38 miles
        Parking at the client: £4.50 (receipt)
        Purpose: factory acceptance test for the Harwood conveyor project. Ruth drove straight from home in the
        morning and went home afterwards; she did not go into the office that day.""", 2),
    # office legs only: 44 mi x 0.45 = 19.80.
    it(MILEAGE_BAND, {
        "employee": "Kieran Walsh",
        "working_days": "Mon-Fri",
        "usual_one_way_commute_miles": 9,
        "date": "2025-03-13",
        "legs": [
            {"from": "Pell & Crane office, Bristol", "to": "Avonside Housing, Bath", "miles": 22},
            {"from": "Avonside Housing, Bath", "to": "Pell & Crane office, Bristol", "miles": 22},
        ],
        "parking": 0.00,
        "purpose": "Tenant survey workshop",
        "vehicle": "own car, petrol",
        "note": "Left from the office after the morning stand-up and returned to the office for the afternoon.",
    }, 1),
    # Saturday: no deduction; 140 mi x 0.45 = 63.00.
    it(MILEAGE_BAND, """\
        Mileage claim - Sunita Rao, Saturday 15 March 2025 (she works Monday to Friday; usual one-way commute 15 miles)
        Home to the Birmingham trade fair stand set-up: 70 miles
        Birmingham back to home: 70 miles
        No parking charge (exhibitor parking free).
        Sunita's manager approved the weekend working in advance; she will take a day off in lieu. She normally
        commutes to the Coventry office.""", 3),
    # legs 10 mi each, commute 14: both legs 0; fine not paid -> 0.
    it(MILEAGE_BAND, """\
        Claim from Dylan Hughes for Wednesday 9 April 2025 (works Mon-Fri, usual commute 14 miles each way):
        - Home to client office in Cardiff Bay: 10 miles
        - Cardiff Bay back to home: 10 miles
        - Parking fine received at the client's car park: £60.00
        Dylan's note: "the fine wasn't my fault, the client's visitor bay was full." """, 0),
    # (120-20)+(120-20)=200 mi x 0.45 = 90 + tolls 7.40 = 97.40.
    it(MILEAGE_BAND, {
        "employee": "Fatima Begum",
        "working_days": "Mon-Fri",
        "usual_one_way_commute_miles": 20,
        "date": "2025-05-13",
        "legs": [
            {"from": "home", "to": "Severn Water treatment site", "miles": 120},
            {"from": "Severn Water treatment site", "to": "home", "miles": 120},
        ],
        "tolls": 7.40,
        "parking": 0.00,
        "purpose": "Commissioning visit for the filtration upgrade",
        "note": "Severn Bridge tolls both ways; drove from home and back the same day.",
    }, 3),
    # (190-10)+(190-10)=360 mi x 0.45 = 162.00.
    it(MILEAGE_BAND, """\
        Mileage - Graham Turner - Thursday 17 April 2025 (normal working day; usual one-way commute 10 miles)
        Home -> Leeds client office: 190 miles
        Leeds client office -> home: 190 miles
        No parking or tolls.
        Purpose: audit closing meeting. Graham considered the train but the first arrival was after the meeting
        start, so his manager agreed he could drive. Fuel receipts are not needed for mileage.""", 4),
    # Friday is a non-working day (works Mon-Thu): no deduction; 100 mi x 0.45 = 45 + parking 6 = 51.
    it(MILEAGE_BAND, """\
        Claim - Harriet Cole (part-time: works Monday to Thursday; usual one-way commute 30 miles)
        Friday 6 June 2025 - covered a client meeting for a colleague:
        Home to Wexford Logistics, Swindon - 50 miles
        Swindon back home - 50 miles
        Car park at Wexford Logistics - £6.00""", 2),
    # Tue: (30-18)+12+8 = 32 mi x 0.45 = 14.40; speeding fine not paid.
    it(MILEAGE_BAND, {
        "employee": "Owen Price",
        "working_days": "Mon-Fri",
        "usual_one_way_commute_miles": 18,
        "date": "2025-07-08",
        "legs": [
            {"from": "home", "to": "Client A, Newport", "miles": 30},
            {"from": "Client A, Newport", "to": "Client B, Cwmbran", "miles": 12},
            {"from": "Client B, Cwmbran", "to": "Pell & Crane office, Cardiff", "miles": 8},
        ],
        "other": [{"item": "Speeding fine, A48", "amount": 100.00}],
    }, 1),
    # (60-15)+(60-15)=90 mi x 0.45 = 40.50 + airport parking 72.00 = 112.50.
    it(MILEAGE_BAND, """\
        Mileage claim - Leo Marsh (works Mon-Fri, usual one-way commute 15 miles)
        Tuesday 23 September 2025: home to Bristol Airport for a flight to the Edinburgh client - 60 miles
        Thursday 25 September 2025: Bristol Airport back to home - 60 miles
        Airport parking for the three days: £72.00 (receipt)""", 3),
    # home is normal place of work, commute 0: 260 mi x 0.45 = 117 + parking 5 = 122.
    it(MILEAGE_BAND, """\
        Claim - Bethany Shaw, Tuesday 21 January 2025. Her contract makes home her normal place of work (usual commute
        0 miles); working days Mon-Fri.
        Home to the national training centre, Nottingham: 130 miles
        Nottingham back home: 130 miles
        Parking at the training centre: £5.00
        Purpose: two-day assessor course, but she drove home on the first evening and back the next morning - the
        second day is on a separate claim. Parking receipt attached.""", 4),
    # ---- Tessellate: card review ---------------------------------------------------------------------------------------
    # reconciled 8 days after statement; all business with receipts.
    it(CARD_SEVERITY, {
        "cardholder": "Amelia Hart",
        "statement_date": "2025-03-31",
        "reconciled_on": "2025-04-08",
        "charges": [
            {"date": "2025-03-04", "merchant": "Trainline", "amount": 86.40, "type": "business", "receipt": True},
            {"date": "2025-03-12", "merchant": "Premier Inn Leeds", "amount": 112.00, "type": "business", "receipt": True},
            {"date": "2025-03-19", "merchant": "Staples", "amount": 23.99, "type": "business", "receipt": True},
        ],
    }, 0),
    # business £38 without receipt.
    it(CARD_SEVERITY, """\
        Card statement review - cardholder Ben Okafor - statement date 30 April 2025 - reconciled 7 May 2025
        03 Apr  Addison Lee taxi ........ £38.00  business  no receipt ("app account deleted")
        15 Apr  LNER rail ............... £94.50  business  receipt
        22 Apr  Pret A Manger ........... £11.20  business  receipt""", 1),
    # reconciled 12 days late.
    it(CARD_SEVERITY, """\
        Statement date: 30 April 2025. Reconciled: 22 May 2025.
        Cardholder: Chloe Brennan
        Charges (all business, all with receipts): Eurostar £212.00; Hotel Ibis Brussels £146.00; Uber £17.60.
        Comment from Chloe: "Was on holiday for the first half of May."
        All three charges relate to the Brussels client visit on 14-15 April; receipts match the statement
        amounts.""", 1),
    # reconciled 18 days late.
    it(CARD_SEVERITY, {
        "cardholder": "Daniel Fraser",
        "statement_date": "2025-05-31",
        "reconciled_on": "2025-06-28",
        "charges": [
            {"date": "2025-05-06", "merchant": "British Airways", "amount": 184.00, "type": "business", "receipt": True},
            {"date": "2025-05-07", "merchant": "Hilton Glasgow", "amount": 139.00, "type": "business", "receipt": True},
        ],
        "cardholder_comment": "Sorry - quarter-end close took all of June. Everything is business and receipted.",
    }, 2),
    # business £64 without receipt.
    it(CARD_SEVERITY, """\
        Cardholder: Ella Morgan | Statement 30 June 2025 | Reconciled 4 July 2025
        - 09 Jun, Dishoom (client lunch, 2 people), £64.00, business, no receipt - "waiter took the receipt away"
        - 18 Jun, GWR rail, £52.30, business, receipt
        - 25 Jun, Ryman, £8.49, business, receipt""", 2),
    # personal £42 declared and repaid after 12 days.
    it(CARD_SEVERITY, """\
        Statement review - Farah Ali - statement date 31 July 2025 - reconciled 6 August 2025
        Charges:
          02 Jul  Boots pharmacy      £42.00  PERSONAL - declared by cardholder, repaid to the company on 14 Jul
          10 Jul  Travelodge Derby    £78.00  business, receipt
          11 Jul  Uber                £12.40  business, receipt""", 2),
    # personal £42 declared, not repaid after 45 days.
    it(CARD_SEVERITY, {
        "cardholder": "George Pallister",
        "statement_date": "2025-08-31",
        "reconciled_on": "2025-09-05",
        "review_date": "2025-10-02",
        "charges": [
            {"date": "2025-08-18", "merchant": "Sainsbury's", "amount": 42.00, "type": "personal (declared)",
             "repaid": False},
            {"date": "2025-08-20", "merchant": "Virgin Trains", "amount": 67.00, "type": "business", "receipt": True},
        ],
        "finance_note": "Repayment request sent to the cardholder on 2025-09-05; no payment received yet.",
    }, 3),
    # cash withdrawal.
    it(CARD_SEVERITY, """\
        Cardholder: Hannah Ibbotson. Statement date 30 September 2025, reconciled 3 October 2025.
        - 05 Sep: ATM cash withdrawal, Lisbon airport, £50.00 - "for taxis, the cab didn't take cards"; taxi receipts
          attached for £46.00
        - 06 Sep: Hotel Lisboa Plaza, £188.00, business, receipt
        - 08 Sep: TAP Air Portugal, £152.00, business, receipt""", 3),
    # personal £120 repaid next day.
    it(CARD_SEVERITY, """\
        Statement review - Isaac Newell - statement 31 October 2025 - reconciled 5 November 2025
        14 Oct  John Lewis  £120.00  personal, used the wrong card by mistake - declared and repaid on 15 Oct
        21 Oct  Premier Inn Bristol  £96.00  business, receipt
        22 Oct  Costa  £4.60  business, receipt""", 3),
    # split purchase to stay under £2,000 limit.
    it(CARD_SEVERITY, {
        "cardholder": "Jack Lomax",
        "statement_date": "2025-11-30",
        "reconciled_on": "2025-12-03",
        "charges": [
            {"date": "2025-11-12", "merchant": "Currys Business", "amount": 1600.00, "type": "business",
             "receipt": True, "description": "laptop for new starter - part 1"},
            {"date": "2025-11-12", "merchant": "Currys Business", "amount": 1500.00, "type": "business",
             "receipt": True, "description": "laptop for new starter - part 2 (card limit is £2,000 per charge)"},
        ],
    }, 4),
    # payment to a business owned by cardholder's brother.
    it(CARD_SEVERITY, """\
        Cardholder: Natalie Hughes (Office Manager). Statement date 31 January 2025. Reconciled 6 February 2025.
        - 21 Jan: Hughes Catering Ltd, £480.00, business - team lunch for the quarterly review, receipt attached.
          (Companies House lists Robert Hughes, Natalie's brother, as the owner and sole director of Hughes
          Catering Ltd.)
        - 27 Jan: Amazon Business, £36.99, business - printer toner, receipt attached""", 4),
    # single £1,950 business charge with receipt, reconciled exactly on day 10.
    it(CARD_SEVERITY, """\
        Cardholder: Olivia Pratt | Statement date: 31 August 2025 | Reconciled: 10 September 2025
        - 04 Aug: Hotel booking for the 6-person offsite, Malmaison Manchester, £1,950.00, business, one invoice,
          receipt attached
        - 19 Aug: Trainline, £58.20, business, receipt attached
        Olivia booked the offsite rooms on behalf of her team leader; the hotel is unrelated to any employee. The
        single-transaction limit on her card is £2,000.""", 0),
]
