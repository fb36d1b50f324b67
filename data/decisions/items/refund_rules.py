"""Refund rules: refund, return, warranty and cancellation requests judged against a written policy.

Every question states its policy in full; the items stress applying it: counting days between dates, adding amounts
against thresholds, exceptions to exceptions, and "no rule blocks it" answers.
"""

from ._kit import choice, it, noul, score

DOMAIN = "refund_rules"
PREFIX = "refund"

# ---- Northwind Home: home-goods returns ---------------------------------------------------------------------

NORTHWIND_POLICY = (
    "Northwind Home returns policy.\n"
    "R1. Unused items in their original packaging can be returned within 30 days of delivery for a full refund of "
    "the item price.\n"
    "R2. Items that have been opened or used but are not faulty can be returned within 30 days of delivery for the "
    "item price minus a 15% restocking fee.\n"
    "R3. Faulty items can be returned within 90 days of delivery for a full refund of the item price plus the "
    "original delivery charge.\n"
    "R4. Items marked 'final sale' (including clearance) cannot be returned unless they are faulty.\n"
    "R5. Mattresses, pillows and duvets cannot be returned once the hygiene seal is broken, unless they are faulty.\n"
    "R6. Every return needs proof of purchase: a Northwind order number or a till receipt.\n"
    "Days are counted from the delivery date: the day after delivery is day 1, so a request made exactly 30 days "
    "after delivery is still within 30 days. Delivery charges are refunded only under R3."
)
NW_ANY = noul(
    f"{NORTHWIND_POLICY}\n\nApply the policy to this request, using the dates given. Is the customer entitled to any "
    "refund at all (full or reduced)?",
    true="The policy allows a refund under R1, R2 or R3.",
    false="The policy does not allow this return.",
)
NW_AMOUNT = score(
    f"{NORTHWIND_POLICY}\n\nApply the policy to this request, using the dates given. What does the policy give the "
    "customer?",
    [
        "no refund: the policy does not allow this return",
        "the item price minus the 15% restocking fee (R2)",
        "the full item price; the delivery charge is not refunded (R1)",
        "the full item price plus the original delivery charge (R3, faulty item)",
    ],
)
NW_BLOCK = choice(
    f"{NORTHWIND_POLICY}\n\nWhich rule stops this return? If more than one applies, pick the first one that applies "
    "in the order the options are listed. If the return is allowed (even with a restocking fee), say so.",
    {
        "no_rule_blocks_it": "the return is allowed under R1, R2 or R3",
        "missing_proof_of_purchase": "R6: no order number and no till receipt",
        "final_sale": "R4: a final-sale or clearance item that is not faulty",
        "hygiene_seal_broken": "R5: a mattress, pillow or duvet with its seal broken that is not faulty",
        "past_30_days_not_faulty": "not faulty and more than 30 days after delivery",
        "past_90_days_faulty": "faulty but more than 90 days after delivery",
    },
)

# ---- Voltline Electronics: returns and warranty ----------------------------------------------------------------

VOLTLINE_POLICY = (
    "Voltline Electronics returns and warranty policy. All periods are counted from the purchase date (day 0).\n"
    "1. Change of mind: unopened items returned within 14 days get a full refund to the original payment method.\n"
    "2. Opened items that are not faulty and not damaged, returned within 14 days: exchange or store credit only, "
    "no money back.\n"
    "3. A fault reported within 30 days: the customer may choose a refund or a replacement.\n"
    "4. A fault reported after day 30 and within 12 months: free repair under warranty. A replacement is given "
    "only if the Voltline repair centre confirms the item cannot be repaired.\n"
    "5. Customers with a Voltline Care plan: the 12 months in rule 4 become 36 months.\n"
    "6. Damage caused by the customer (drops, liquid, cracked screens, bent pins) is not covered by any rule.\n"
    "7. Items that are not faulty, after day 14: no remedy."
)
VOLT_REMEDY = choice(
    f"{VOLTLINE_POLICY}\n\nWhat remedy does the policy give this customer?",
    {
        "full_refund": "money back to the original payment method under rule 1",
        "refund_or_replacement": "the customer chooses a refund or a replacement (rule 3)",
        "exchange_or_store_credit": "exchange or store credit only (rule 2)",
        "free_repair": "free repair under warranty (rule 4, or rule 5 with Voltline Care)",
        "replacement": "a replacement because the repair centre confirmed it cannot be repaired (rule 4)",
        "partial_refund": "money back minus a restocking or handling fee",
        "no_remedy": "the policy gives nothing",
    },
)
VOLT_MONEY = noul(
    f"{VOLTLINE_POLICY}\n\nUnder this policy, is the customer entitled to get money back to their payment method "
    "(either directly or by choosing a refund), rather than only an exchange, store credit, repair, replacement "
    "or nothing?"
)

# ---- Pinecrest Outdoors: refund approval authority ---------------------------------------------------------------

PINECREST_POLICY = (
    "Pinecrest Outdoors refund authority. Support agents may approve refunds up to and including $150.00; team "
    "leads up to and including $600.00; the customer care manager up to and including $2,500.00; anything larger "
    "needs the finance director. The amount that counts is the total refund for the whole case: every item being "
    "refunded plus any shipping being refunded. If the customer already received a refund within the last 30 days "
    "(counting back from today's date), the case needs at least a team lead whatever the amount. A refund to a "
    "payment method other than the one used for the order always needs at least the customer care manager."
)
PINE_APPROVER = score(
    f"{PINECREST_POLICY}\n\nThe refund in this case has been agreed in principle. Who is the lowest role that is "
    "allowed to approve it?",
    [
        "support agent",
        "team lead",
        "customer care manager",
        "finance director",
    ],
)

# ---- Harbour Arts Centre: ticket cancellations ------------------------------------------------------------------

HARBOUR_POLICY = (
    "Harbour Arts Centre ticket policy. Count the days from the date the customer asks to cancel to the date of "
    "the performance.\n"
    "- 30 days or more before the performance: refund of the ticket price minus a £3.00 booking fee per ticket.\n"
    "- 8 to 29 days before: refund of 50% of the ticket price.\n"
    "- 7 days or fewer before (including the day of the performance): no refund; the tickets can be exchanged for "
    "another performance of the same show for £5 per ticket.\n"
    "- After the performance has taken place: nothing.\n"
    "- If the Centre cancels a performance: full refund including booking fees.\n"
    "- If the Centre moves a performance to a new date, ticket holders can claim a full refund including booking "
    "fees within 14 days of the announcement; after those 14 days the normal rules apply, counted to the new date."
)
HARBOUR_OUTCOME = choice(
    f"{HARBOUR_POLICY}\n\nWhat is the customer entitled to?",
    {
        "full_refund_with_fees": "full refund including booking fees",
        "refund_minus_booking_fee": "ticket price back minus £3.00 per ticket",
        "half_refund": "50% of the ticket price",
        "exchange_only": "no refund, but an exchange to another performance for £5 per ticket",
        "credit_voucher": "a voucher for the full value to spend on a future show",
        "nothing": "no refund and no exchange",
    },
)
HARBOUR_MONEY = noul(
    f"{HARBOUR_POLICY}\n\nUnder this policy, is the customer owed any money back?"
)

# ---- Streamly: subscription refunds -----------------------------------------------------------------------------

STREAMLY_POLICY = (
    "Streamly subscription refund rules.\n"
    "(a) Duplicate charges for the same billing period are always refunded in full.\n"
    "(b) Accounts closed by Streamly for breaking the terms of service get no refund, except duplicates under (a).\n"
    "(c) Monthly plans are not refundable, except that a renewal charge taken within 48 hours after the customer "
    "cancelled is refunded in full.\n"
    "(d) Annual plans: cancelled within 14 days of the annual charge, full refund; cancelled on day 15 to day 90 "
    "after the charge, a refund for the unused whole months (annual price / 12 x unused whole months); cancelled "
    "after day 90, no refund.\n"
    "Days are counted from the charge date (day 0)."
)
STREAMLY_OUTCOME = choice(
    f"{STREAMLY_POLICY}\n\nWhat does the customer get for the charge they are asking about?",
    {
        "full_refund": "the whole charge back",
        "prorated_refund": "a refund for the unused whole months of an annual plan",
        "account_credit": "credit on the Streamly account instead of money",
        "refund_minus_fee": "the charge back minus a cancellation fee",
        "no_refund": "nothing back",
    },
)

# ---- Kettleby: appliance warranty ---------------------------------------------------------------------------------

KETTLEBY_POLICY = (
    "Kettleby appliance warranty.\n"
    "1. Manufacturing defects are covered for parts and labour for 2 years from the purchase date.\n"
    "2. In the third year after purchase, defects are covered for parts only (the customer pays labour), but only if "
    "the product was registered online within 60 days of purchase.\n"
    "3. Never covered: damage from misuse, drops, liquid spills or power surges; products used commercially; "
    "products opened or repaired by anyone other than an authorised Kettleby service centre; consumable parts "
    "(filters, bulbs, seals, gaskets).\n"
    "4. A claim needs proof of purchase showing the purchase date."
)
KETTLEBY_COVERED = noul(
    f"{KETTLEBY_POLICY}\n\nIs this claim covered by the warranty, in full or in part?"
)
KETTLEBY_LEVEL = score(
    f"{KETTLEBY_POLICY}\n\nWhat cover does the warranty give for this claim?",
    [
        "not covered",
        "parts covered, labour charged to the customer",
        "parts and labour covered",
    ],
)

# ---- Lakeside Market: price adjustments -------------------------------------------------------------------------------

LAKESIDE_POLICY = (
    "Lakeside Market price adjustment policy. If Lakeside lowers its own regular price of an item within 14 days "
    "after the purchase date, we refund the difference. Conditions: it must be exactly the same product (same model, "
    "size and colour); clearance prices, 'Flash Deal' prices, coupon prices and bundle deals do not count; "
    "competitors' prices do not count; only one adjustment per item; and the customer must ask within 14 days of "
    "the purchase date."
)
LAKESIDE_ADJUST = noul(
    f"{LAKESIDE_POLICY}\n\nDoes this customer qualify for a price adjustment?"
)

# ---- Brightwell Stores: refund method ---------------------------------------------------------------------------------

BRIGHTWELL_POLICY = (
    "Brightwell Stores refund method rules (the refund itself has already been approved; only the method is "
    "decided here).\n"
    "1. Any part of an order paid with a Brightwell gift card is refunded as a new Brightwell gift card.\n"
    "2. Card payments are refunded to the same card if the purchase date is no more than 180 days before today; "
    "otherwise by bank transfer.\n"
    "3. Cash payments are refunded in cash if the item is returned in store, or by bank transfer if it is returned "
    "by post.\n"
    "4. PayPal payments are refunded to PayPal if the purchase is no more than 180 days old; otherwise by bank "
    "transfer.\n"
    "5. Orders paid partly with a gift card and partly another way are split: rule 1 for the gift-card part and "
    "rules 2-4 for the rest.\n"
    "The customer's own preference does not change the method."
)
BRIGHTWELL_METHOD = choice(
    f"{BRIGHTWELL_POLICY}\n\nHow must this refund be paid?",
    {
        "same_card": "back to the card used for the purchase",
        "bank_transfer": "by bank transfer",
        "new_gift_card": "as a new Brightwell gift card",
        "cash": "in cash at the till",
        "paypal": "back to PayPal",
        "split": "split between a new gift card and another method (rule 5)",
        "store_credit": "as credit on the customer's Brightwell account",
    },
)

# ---- Marketplace buyer guarantee -----------------------------------------------------------------------------------------

GUARANTEE_POLICY = (
    "Tradeloft marketplace buyer guarantee for 'item not as described' claims. A claim is approved only if all five "
    "conditions hold:\n"
    "(1) the claim is opened no later than 30 days after the delivery date;\n"
    "(2) the buyer messaged the seller about the problem at least 48 hours before opening the claim;\n"
    "(3) the buyer has provided at least one photo of the problem;\n"
    "(4) the order was paid through Tradeloft checkout (not a bank transfer, cash or another payment arranged off "
    "the platform);\n"
    "(5) the order total is $1,500.00 or less."
)
GUARANTEE_FAILS = score(
    f"{GUARANTEE_POLICY}\n\nCheck each of the five conditions against this claim. How many of them are NOT met?",
    [
        "none: all five conditions are met",
        "exactly one condition is not met",
        "exactly two conditions are not met",
        "three or more conditions are not met",
    ],
)

ITEMS = [
    # ---- Northwind: any refund? ------------------------------------------------------------------------------------
    # 3 Mar -> 31 Mar = 28 days, used, not faulty: R2.
    it(NW_ANY, """\
        From: Priya Raman <priya.raman@fastmail.co.uk>
        To: returns@northwindhome.co.uk
        Date: 31 March 2025
        Subject: Return - order NW-448120

        Hi,
        I'd like to return the Aldo stand mixer from order NW-448120. I ordered it on 24 February and it was delivered
        on 3 March 2025. I've used it once to make a birthday cake and it worked fine, but honestly it's far too big
        for our kitchen worktop and it's too heavy for me to lift into the cupboard every time.
        Could you send me a returns label? I still have the box, though I cut the tape to open it, and all the
        attachments are there. I understand if you need to check it when it comes back.
        Thanks, Priya""", True),
    # 10 Jan -> 12 Feb = 33 days, unused, not faulty: too late.
    it(NW_ANY, """\
        [12 Feb 2025 10:14] Customer: hi, I want to return the oak bookshelf, it's still flat-packed in the box, never opened
        [10:14] Agent (Northwind): Of course! Could I have your order number and the delivery date?
        [10:15] Customer: NW-391077, it came on 10 January
        [10:15] Customer: we just decided we don't need it after all, we're moving flat in March and the new place has built-in shelves
        [10:16] Agent (Northwind): Thanks. Is anything wrong with the bookshelf, like missing parts or damage?
        [10:16] Customer: no it's all fine as far as I know, I haven't opened it. so a refund to my card please""", False),
    # 2 Nov -> 20 Dec = 48 days; final sale but faulty: R3 within 90 days.
    it(NW_ANY, {
        "form": "Online return request",
        "submitted": "2024-12-20",
        "order_number": "NW-360552",
        "ordered": "2024-10-28",
        "item": "Marlow floor lamp (CLEARANCE - FINAL SALE)",
        "price": 64.00,
        "delivery_charge": 5.95,
        "delivered": "2024-11-02",
        "condition": "assembled and used",
        "reason": "Flickers constantly and the switch sparks when pressed. It has done this since the first evening; "
                  "we tried three different bulbs and two sockets.",
        "photos_attached": 2,
        "preferred_outcome": "refund to original card",
    }, True),
    # mattress, seal removed, not faulty: R5.
    it(NW_ANY, """\
        Hello Northwind team,
        Order NW-502233: the Haven memory foam mattress (double, £429) arrived on 2 June 2025. We took it out of its
        plastic wrapping, let it expand for a day as the instructions say, and slept on it for a week, but it is much
        too firm for my partner's back. There is nothing wrong with it as such and it's spotless - it just isn't for
        us. Today is 12 June. Can we return it for a refund? We still have the delivery note and the order
        confirmation email, and we can have it rolled up and ready for collection any weekday.
        Regards, Tomasz Nowak""", False),
    # pillows, seal broken but faulty (seams split): R3, 15 days.
    it(NW_ANY, """\
        Live chat transcript, 1 March 2025
        Customer (Gemma): Hi, the pair of Cloudsoft pillows from order NW-477019 came on 14 Feb. First night using them
        the seam on one split right open and feathers went everywhere, the other one is coming apart at the corner too.
        Agent: I'm sorry to hear that. Have the pillows been taken out of their sealed bags?
        Customer (Gemma): Yes obviously, we slept on them. The stitching is just really poor, you can pull it apart
        with your fingers. I've got photos. Can I get my money back?
        Agent: Thank you, I can see your order. Let me check what we can do.""", True),
    # no order number and no receipt: R6.
    it(NW_ANY, """\
        Hi there,
        my aunt sent me a Northwind ceramic table lamp as a housewarming present and it was delivered here on 6 May
        2025. It's still sealed in the box but it really doesn't go with our living room, which is all dark green.
        I don't have an order number or a receipt because she paid for it online, and she's on a cruise at the moment
        so I can't ask her for the confirmation email. The delivery label on the box just has my address on it. It's
        9 May today. Can I return it for a refund to my own card? I'm happy to post it back at my own cost.
        Many thanks, Jonah""", False),
    # faulty, 15 Aug -> 14 Nov = 91 days: past 90.
    it(NW_ANY, {
        "ticket": "RT-88214",
        "opened": "2024-11-14",
        "channel": "phone",
        "customer": "Harold Finch",
        "order_number": "NW-298841",
        "item": "Everwarm oil-filled radiator 2kW",
        "price": 89.99,
        "delivered": "2024-08-15",
        "first_used": "2024-10-20",
        "issue": "Thermostat stopped working, radiator now stays cold on every setting. Not dropped or damaged. "
                 "Customer says he only started using it when the weather turned cold in late October.",
        "requested_outcome": "refund",
    }, False),
    # unused, 30 Apr -> 30 May = 30 days: still in time.
    it(NW_ANY, """\
        Return form (paper, posted with the parcel)
        Name: Aisha Bello
        Address: 14 Carlton Road, Reading RG1 7NZ
        Order number: NW-519460
        Item: Kilim runner rug 70 x 240 cm, still rolled and wrapped in the original plastic
        Ordered: 26/04/2025
        Delivered: 30/04/2025
        Date of this request: 30/05/2025
        Reason for return: colour is much darker than in the photos on the website
        Is the item faulty or damaged? No
        Refund to: original payment card
        Signed: A. Bello""", True),
    # final sale, unused, not faulty: R4.
    it(NW_ANY, """\
        Subject: Return cushion covers

        Hi, I bought 4 velvet cushion covers in the January clearance (order NW-404412, they were marked final sale on
        the website, £6 each). They arrived on 20 January and it's the 26th today. They're still in the packet,
        never used, tags on. I just don't like the shade of green in real life, it's much more yellow than on my
        screen. Can I get a refund? I've attached the order confirmation. I'd be happy to pay for the postage back.
        Thanks,
        Corinne""", False),
    # bank statement is neither an order number nor a till receipt: R6.
    it(NW_ANY, """\
        Subject: Returning a mirror

        Hello,
        I can't find the confirmation email for my order (I think it went to an old email address I no longer use)
        and I don't know the order number, but I've attached a screenshot of my bank statement showing the payment of
        £89.00 to NORTHWIND HOME on 11 April. The round brass mirror was delivered on 14 April 2025 and I haven't even
        taken it out of the box; it's too small for the hallway. Today is 23 April. Please refund it to my card.
        I can drop it at your Bristol store if that's easier.
        Olu Adeyemi""", False),
    # leap year: 10 Feb 2024 -> 11 Mar 2024 = 30 days, unused: R1.
    it(NW_ANY, {
        "channel": "email",
        "received": "2024-03-11",
        "customer": "Ruth Okonjo",
        "order_number": "NW-210935",
        "order_date": "2024-02-06",
        "items": [
            {"name": "Linen blackout curtains 168 x 183 cm", "price": 72.00, "state": "unopened, in original packaging"},
        ],
        "delivery_charge": 4.95,
        "delivered": "2024-02-10",
        "customer_message": "I ordered the wrong drop length - our windows need 229 cm. They've never been opened. "
                            "Please can I return them? I'll reorder the right size separately.",
    }, True),
    # faulty kettle, 5 Mar -> 1 Jun = 88 days: R3.
    it(NW_ANY, """\
        From: d.okafor@outlook.com
        Sent: 1 June 2025
        Subject: Kettle cutting out - NW-455302

        Hello,
        The Brunswick glass kettle (delivered 5 March 2025) has started switching itself off before the water boils,
        every single time, and the base gets very hot. I've descaled it twice as the leaflet says. I haven't dropped it
        or got the base wet. I'd like a refund rather than a replacement if possible, as my sister's one from the same
        range has done the same thing. I have my order confirmation and can send photos of the base.
        Daniel Okafor""", True),
    # ---- Northwind: which outcome ---------------------------------------------------------------------------------
    # faulty toaster, 6 Jan -> 20 Feb = 45 days: R3, delivery refunded.
    it(NW_AMOUNT, """\
        Case notes - Northwind customer service
        Today's date: 20 February 2025
        Order NW-433871, placed 2 January 2025, delivered 6 January 2025
        Item: Brunswick 4-slice toaster, £54.99 (delivery charge £4.95)
        Customer says: "Only the left two slots heat up now, the right side stays cold. Started last week. It's been
        used normally, nothing spilled on it, and it's on its own socket." Agent asked the customer to try another
        socket; same result. Customer has the order confirmation email and wants her money back.""", 3),
    # unused sealed rug, 14 days: R1.
    it(NW_AMOUNT, {
        "request_date": "2025-09-18",
        "customer": "Laurence Pike",
        "order_number": "NW-560128",
        "item": "Jute round rug 160 cm",
        "item_price": 95.00,
        "delivery_charge": 6.95,
        "ordered": "2025-08-31",
        "delivered": "2025-09-04",
        "condition": "unused, still in sealed original packaging",
        "faulty": False,
        "reason": "Changed mind about the size; measured the room again and it's too small for under the table",
        "return_method": "courier collection",
    }, 2),
    # opened blender, fine, 21 days: R2.
    it(NW_AMOUNT, """\
        [Chat, 2 October 2025]
        Customer: hi, the Vortex blender from order NW-561904 arrived on 11 Sept. I've made smoothies with it a few
        times, it works perfectly well, but it's really loud and my toddler hates it lol. Can I send it back?
        Agent: Thanks for getting in touch! Is there anything wrong with it, like a fault or damage?
        Customer: no, nothing wrong, just the noise. I've washed the jug and it's all back in the box
        Agent: Great, and you paid £69.00 for it plus £4.95 delivery, is that right?
        Customer: yes that's right""", 1),
    # opened, 35 days, not faulty: too late.
    it(NW_AMOUNT, """\
        Return request received 14 August 2025 for order NW-540077 (customer: Mr and Mrs Haddad).
        Items: set of two Brooklyn bar stools, £149.00, delivery £9.95. Ordered 6 July 2025, delivered 10 July 2025.
        The stools have been assembled and used. Customer's reason: "They're a bit too tall for our breakfast bar,
        our knees hit the underside." No fault or damage reported; the customer says they have been well looked after.
        Order confirmation provided. Customer asks whether we can collect them as they no longer fit in the box.""", 0),
    # final-sale chair faulty (broken weld) 12 days: R3.
    it(NW_AMOUNT, """\
        Hi Northwind,
        The Oslo dining chair I got in the clearance sale (order NW-512660, final sale) was delivered on 3 May. I
        didn't get round to unpacking it until today, 15 May, and when I did I noticed the weld on the back left leg is
        cracked right through and the chair wobbles badly. I haven't sat on it - I wouldn't dare. Photos attached of
        the crack and of the packaging, which wasn't damaged at all, so it must have left the factory like that.
        The chair was £79 and I paid £5.95 delivery. What can you do?
        Best, Marguerite""", 3),
    # duvet seal broken, not faulty: R5.
    it(NW_AMOUNT, {
        "request_date": "2025-11-25",
        "customer": "Ioana Popescu",
        "order_number": "NW-588300",
        "item": "Arctic 13.5 tog king duvet",
        "item_price": 89.00,
        "delivery_charge": 0.00,
        "delivered": "2025-11-20",
        "condition": "removed from its sealed bag, used for two nights, clean",
        "reason": "Too warm for us, we'd like a lighter one; happy to pay the difference for the 7.5 tog",
        "fault_reported": False,
    }, 0),
    # unused, 15 Dec -> 14 Jan = 30 days: R1.
    it(NW_AMOUNT, """\
        Email received 14 January 2025:
        "Good morning, I'd like to return the Harlow table lamp from order NW-421590 (£45.00, delivery £3.95). It was
        delivered on 15 December as a Christmas present for my father-in-law, but he was given an almost identical one
        by someone else so we ended up not giving it. It's still in its original sealed box and nothing is wrong with
        it. Could I have a refund to my Visa please? I can drop it at the Leeds store this week.
        Kind regards, Neil Prentice\"""", 2),
    # used lamp, leap 20 Feb -> 18 Mar 2024 = 27 days, not faulty: R2.
    it(NW_AMOUNT, """\
        Today is 18 March 2024. Customer Farah Siddiqui wants to return the Pivot desk lamp (order NW-203318, ordered 15
        February 2024, delivered 20 February 2024). She has used it on her desk for a few weeks; it works, but the arm
        won't reach far enough over her drawing board, which she uses for architectural drawings. Item price £42.00,
        delivery £3.95. Order number confirmed on the account. No fault, no damage; she still has the box and the
        instruction leaflet.""", 1),
    # faulty, 2 May -> 30 Jul = 89 days: R3.
    it(NW_AMOUNT, {
        "case": "NW-C-77410",
        "today": "2025-07-30",
        "customer": "Gareth Lloyd",
        "order_number": "NW-527051",
        "item": "Cast iron casserole dish 28 cm",
        "item_price": 119.00,
        "delivery_charge": 4.95,
        "ordered": "2025-04-28",
        "delivered": "2025-05-02",
        "issue": "Enamel has started flaking off the inside base after normal hob use; customer followed the care guide "
                 "(no metal utensils, no dishwasher). Photos show chips across the base.",
        "customer_caused_damage": False,
        "requested_outcome": "refund",
    }, 3),
    # used throw, 29 days, not faulty: R2.
    it(NW_AMOUNT, """\
        Hello,
        I'd like to return the chunky knit throw from order NW-570302 (£58.00, free delivery). It was delivered on 1
        October 2025 and today is 30 October. We've had it on the sofa for a couple of weeks and washed it once as the
        label says, so it's not new any more, but there's nothing wrong with it - it's just shedding a lot of fluff,
        which is normal for this kind of wool according to your website, and we don't love it with a dark sofa.
        I'll fold it into the original bag.
        Ben""", 1),
    # unused final sale, 8 days: R4.
    it(NW_AMOUNT, """\
        Order NW-601145 (placed on 26 December 2025 in the Boxing Day clearance - all items final sale, as stated at
        checkout). Two glass storage jars with bamboo lids, £18.00, delivery £3.95, delivered 29 December 2025.
        Customer wrote on 6 January 2026: "Still boxed, never used, they're just smaller than I expected from the
        pictures. Please refund, I'll bring them to the Manchester store." No fault or damage mentioned.""", 0),
    # unused curtains with till receipt, 3 days: R1.
    it(NW_AMOUNT, """\
        In-store returns desk note, Northwind Home Leeds, 9 June 2025.
        Customer (Mrs P. Agarwal) brought back a set of voile curtains still sealed in the bag, price £24.00. Bought in
        store and delivered to her home from this store on 6 June (delivery £3.50). Has the original till receipt.
        Reason: wrong colour - she wanted ivory and this is white. No fault. She asked if the delivery charge can be
        refunded too as she "only used the delivery because she doesn't drive".""", 2),
    # ---- Northwind: which rule blocks it ----------------------------------------------------------------------------
    # opened, not faulty, 20 days: R2 allowed.
    it(NW_BLOCK, """\
        Request date: 21 July 2025
        Customer: Oscar Lindqvist
        Order: NW-537290 · Ordered 27 June 2025 · Delivered 1 July 2025
        Item: Bamboo bath caddy, £22.00 (used twice, not faulty, no damage)
        Customer: "It doesn't fit across our bath, it's about 5 cm too short, so it keeps slipping in. I'd like to send
        it back. I know it's been used but it's been wiped down and it's back in its box." """,
       "no_rule_blocks_it"),
    # faulty final sale, 70 days: R3 allowed.
    it(NW_BLOCK, {
        "request_date": "2025-04-11",
        "customer": "Bethan Rees",
        "order_number": "NW-443018",
        "item": "Clearance outdoor string lights, 20 m (final sale)",
        "price": 19.50,
        "delivered": "2025-01-31",
        "issue": "Half of the bulbs stopped lighting in early April; the transformer is faulty according to the test "
                 "at our Cardiff store. Lights were used on a covered veranda as the box recommends.",
        "proof": "order confirmation email",
        "requested_outcome": "refund",
    }, "no_rule_blocks_it"),
    # no proof, 4 days, unused.
    it(NW_BLOCK, """\
        Hi,
        I got a Northwind wall clock delivered on Monday 3 March and it's Friday 7 March now. Never opened it, the
        plastic is still on. The thing is, I paid cash on delivery and the driver didn't give me anything, and I never
        got an email with an order number because I ordered over the phone with my neighbour's help and I don't have
        email. I've looked everywhere for a bit of paper. Can I return it? It's the wrong size for over the fireplace.
        Mrs Edna Pollard (phoned in, typed up by agent)""", "missing_proof_of_purchase"),
    # no proof AND past 30 days: first listed is missing proof.
    it(NW_BLOCK, """\
        Customer in store, 25 September 2025: wants to return an unopened set of Northwind bath towels (4 hand towels,
        2 bath sheets, grey). Says they were delivered to her "around the middle of August, the 16th I think" as a
        present from a colleague who has since left the company. No till receipt and she can't remember or find the
        order number; the gift message card didn't show one either. Not faulty, just an unwanted present - she already
        has plenty of towels. She'd like cash or a refund to her card.""", "missing_proof_of_purchase"),
    # final sale, unused, 10 days.
    it(NW_BLOCK, {
        "request_date": "2025-02-24",
        "customer": "Stefan Kowalski",
        "order_number": "NW-438770",
        "item": "Terracotta plant pots x3 (final sale)",
        "price": 27.00,
        "delivered": "2025-02-14",
        "condition": "unused, original packaging",
        "faulty": False,
        "reason": "Ordered too many for the balcony; would like to return one set of three",
        "proof": "order number in the request",
    }, "final_sale"),
    # pillow opened, not faulty.
    it(NW_BLOCK, """\
        From: rosie.t@gmail.com
        To: help@northwindhome.co.uk
        Subject: Pillow return

        Order NW-566610 - Hotel Collection pillow (delivered 12 Sept 2025). Today is 18 Sept. I took it out of the
        plastic and tried it for a few nights, but it's far too soft for me, I wake up with a stiff neck every morning.
        It's in perfect condition otherwise, no marks or stains, and I used a pillowcase the whole time. I'd like to
        return it for a refund please. I can post it back in the original bag.
        Rosie""", "hygiene_seal_broken"),
    # unused, 31 Jan -> 3 Mar 2025 = 31 days.
    it(NW_BLOCK, """\
        Return request (web form), submitted 3 March 2025
        Name: Sanjay Mehta
        Order number: NW-436655
        Item: 4-tier metal shoe rack, £32.00
        Delivered on: 31 January 2025
        Item condition: unopened
        Faulty or damaged? No
        Proof of purchase: order number above
        Comments: Sorry it's taken me a while, I've been away on a work trip for most of February. I don't need this
        shoe rack any more because we bought a hallway unit with storage. Refund to my debit card please.""",
       "past_30_days_not_faulty"),
    # faulty, 100 days.
    it(NW_BLOCK, {
        "request_date": "2025-08-20",
        "customer": "Moira Gallagher",
        "order_number": "NW-497322",
        "item": "Electric heated throw",
        "price": 69.00,
        "delivered": "2025-05-12",
        "issue": "Controller no longer turns on; customer says it has been stored and used carefully and never "
                 "washed with the controller attached",
        "proof": "order number supplied",
        "requested_outcome": "refund or replacement",
    }, "past_90_days_faulty"),
    # used, not faulty, 45 days.
    it(NW_BLOCK, """\
        [WhatsApp support, 15 Nov 2025]
        Customer: Hey, can I return the coffee table from order NW-575118? Came on 1 October. It's been in our lounge
        since then, no problems with it, we've just found one we like more at a vintage market
        Agent: Thanks for the details! Could you confirm whether there's any damage or a fault with the table?
        Customer: nope, it's in good nick, a couple of coasters' worth of use lol. I've still got the order email
        Agent: Thanks, let me check the policy for you""", "past_30_days_not_faulty"),
    # final sale AND past 30 days: first listed is final sale.
    it(NW_BLOCK, """\
        Date: 9 April 2025
        Customer: Karen Blythe · Order NW-432009 (summer clearance, final sale) · Delivered 18 February 2025
        Item: Rattan garden chair, still wrapped, £65.00
        Reason: "Never got round to using it - the garden's been a building site since February because of our
        extension. Would like a refund please, it's in perfect condition."
        Proof of purchase: order number provided
        Fault reported: none""", "final_sale"),
    # unused, 29 days.
    it(NW_BLOCK, """\
        Hello,
        I'd like to return a pair of ceramic vases (order NW-584471, £38.00 for the pair). They were delivered on 2
        November 2025 and they're still in the box with the packing paper - I never even unwrapped the second one.
        It's 1 December today. They're fine, I just don't have a place for them now that we've rearranged the
        shelves. Could you email me a returns label? I'll drop it at the post office this week.
        Thanks, Lucy""", "no_rule_blocks_it"),
    # ---- Voltline: remedy ---------------------------------------------------------------------------------------------
    # unopened, 9 days.
    it(VOLT_REMEDY, """\
        Store returns log - Voltline Reading, 12 Feb 2025
        Customer: Sam Whitlock. Item: Sonance X2 wireless headphones (£179.00), still in sealed box, cellophane intact.
        Purchased: 3 Feb 2025, receipt presented, paid by Visa debit. Reason: was given an identical pair as a
        birthday present the day after buying these. Staff check: seal and cellophane undamaged, no signs of use.
        Customer asks for the money back on the same card.""", "full_refund"),
    # opened speaker, fine, 12 days.
    it(VOLT_REMEDY, {
        "request_date": "2025-05-22",
        "customer": "Niamh Brennan",
        "purchase_date": "2025-05-10",
        "item": "Boomcube portable speaker",
        "price": 129.00,
        "opened": True,
        "faulty": False,
        "damaged": False,
        "accessories_complete": True,
        "customer_says": "Works fine but the bass is weaker than I hoped from the reviews. I want my money back, "
                         "not a voucher.",
    }, "exchange_or_store_credit"),
    # opened laptop, not faulty, 16 days.
    it(VOLT_REMEDY, """\
        Hi Voltline,
        I bought a Nimbus 14 laptop in your Oxford store on 1 October 2024 and set it up at home the same evening.
        Nothing wrong with it at all, it's a great machine, but I've realised I need something with much more storage
        for the video editing course I've just started. Today is 17 October. Can I swap it for the Nimbus 16 or get a
        refund? It's in perfect condition with all the accessories and the box, and I've reset it to factory settings.
        Chloe Marsh""", "no_remedy"),
    # fault reported day 22.
    it(VOLT_REMEDY, """\
        Subject: Tablet won't charge
        Date: 11 February 2025

        Hello,
        My Pixelpad 11 (bought 20 January 2025, order VL-77120) stopped charging yesterday. The charging light doesn't
        come on at all. I've tried three cables and two plugs, including the original charger, and the battery is now
        at 4%. No drops or spills, it's always been in its case and only used by me at home. What are my options?
        I really need a working tablet for work next week.
        Regards, Marcus Bell""", "refund_or_replacement"),
    # fault reported day 45.
    it(VOLT_REMEDY, {
        "case": "VL-W-20931",
        "reported": "2025-01-13",
        "customer": "Patrick O'Leary",
        "purchase_date": "2024-11-29",
        "purchase_channel": "online (Black Friday sale)",
        "product": "Lumex 55-inch 4K TV",
        "price": 449.00,
        "fault": "Vertical line of dead pixels on the left side of the screen, appeared without any knock or damage",
        "voltline_care": False,
        "repair_centre_assessment": "not yet assessed",
        "customer_request": "Wants a brand new TV straight away",
    }, "free_repair"),
    # dropped phone, cracked screen, 5 days.
    it(VOLT_REMEDY, """\
        [Live chat, 6 Apr 2025]
        Customer: i bought a Zephyr 9 phone from you on 1 April and dropped it on the pavement yesterday getting out of
        the car, now the screen is cracked and the touch doesn't work on the top half. It's only 5 days old, surely
        this is covered?? It was £699
        Agent: I'm sorry to hear that. Was the phone in a case?
        Customer: no the case I ordered hadn't arrived yet. Can I get a new one or my money back?""", "no_remedy"),
    # fault day 400, with Voltline Care (36 months).
    it(VOLT_REMEDY, """\
        Warranty claim submitted 18 February 2025
        Customer: Aaron Fitzgerald
        Product: Orbit S games console (£449.00) · Purchased 15 January 2024 · Voltline Care plan: yes (3-year plan,
        active, paid in full at purchase)
        Fault: console turns off after about 10 minutes of play and won't restart until it cools down. Never dropped,
        kept in a ventilated cabinet, vents cleaned monthly.
        Customer request: "I'd like a refund, this is the second time it's overheated this month." """, "free_repair"),
    # fault day 401, no Care.
    it(VOLT_REMEDY, """\
        Warranty claim submitted 6 January 2025
        Customer: Rebecca Stone
        Product: Orbit S games console (£449.00) · Purchased 2 December 2023 · Voltline Care plan: no
        Fault: the disc drive no longer reads any discs, digital games still work. No physical damage, the console has
        stayed on the TV stand since it was set up.
        Customer note: "It was a Christmas present for my son so it's barely a year old." """, "no_remedy"),
    # fault day 200, repair centre says unrepairable.
    it(VOLT_REMEDY, {
        "case": "VL-W-18660",
        "customer": "Hyun-woo Park",
        "purchase_date": "2024-06-10",
        "fault_reported": "2024-12-27",
        "product": "Aero robot vacuum",
        "price": 329.00,
        "fault": "Main board failure; unit does not power on",
        "voltline_care": False,
        "repair_centre_assessment": "Board no longer manufactured; unit cannot be repaired",
        "customer_damage": False,
        "customer_request": "Whatever gets me a working vacuum fastest",
    }, "replacement"),
    # fault reported day 30 exactly.
    it(VOLT_REMEDY, """\
        Email to Voltline support, 13 April 2025:
        "Hi, my e-reader (bought 14 March 2025 at your Cambridge store, receipt attached) freezes on the home screen
        every time I turn it on. I've done the reset in the manual and left it charging overnight, and it didn't help.
        I haven't dropped it or got it wet - I only read in bed. It's a shame because I loved it for the first few
        weeks. Can you help? - Yusuf Demir\"""",
       "refund_or_replacement"),
    # fault reported day 31.
    it(VOLT_REMEDY, """\
        Fault report - 31 August 2025
        Customer: Ines Carvalho
        Product: Brava coffee machine (small appliances and electronics range), bought 31 July 2025, £249.00
        Description: pump makes a grinding noise and no water comes through the group head. Machine has been descaled
        as instructed and the water tank is seated properly. No signs of damage or misuse on inspection at the
        counter. Customer would like her money back. Voltline Care: not purchased.""", "free_repair"),
    # opened camera, changed mind, 3 days.
    it(VOLT_REMEDY, """\
        Counter note, Voltline Brighton, 11 Aug 2025
        Customer came in with a Fotex M50 camera (£599.00) bought on 8 Aug. She has opened it, charged the battery and
        taken a few test shots. No faults, no marks, all accessories present. Says the grip is too small for her
        hands and she finds the menus confusing, and wants a refund to her card. She mentioned she might look at the
        Fotex M70 instead but "not today".""", "exchange_or_store_credit"),
    # ---- Voltline: money back? ---------------------------------------------------------------------------------------
    # unopened, 13 days.
    it(VOLT_MONEY, """\
        Hi,
        I bought a smart doorbell (Ringo 3, £119) from your website on 2 June 2025 and it's still in the sealed box.
        We've decided to go with a different system because our landlord wants a wired one installed by his
        electrician. Today is 15 June. Can I return it and have the money put back on my card? I can post it or bring
        it to the Guildford store, whichever is easier for you.
        Rachel Osei""", True),
    # opened, fine, 5 days.
    it(VOLT_MONEY, {
        "request_date": "2025-09-06",
        "customer": "Kwame Mensah",
        "purchase_date": "2025-09-01",
        "item": "Gaming keyboard (mechanical, blue switches)",
        "price": 89.99,
        "opened": True,
        "faulty": False,
        "damaged": False,
        "reason": "Prefers quieter switches; flatmate complained about the noise",
        "customer_request": "refund to card",
    }, False),
    # fault, 25 days.
    it(VOLT_MONEY, """\
        Date: 20 January 2025
        Hello,
        the fitness watch (Strive 2) I bought on 26 December has stopped counting steps and the heart-rate sensor reads
        zero all the time. I've reset it twice and updated the app. It has never been swimming (it isn't waterproof)
        and hasn't been knocked - I wear it on my left wrist and take it off at night. I'd really just like my money
        back, I've lost confidence in it.
        Thanks, Eleanor""", True),
    # fault, 40 days: repair only.
    it(VOLT_MONEY, """\
        Chat - 22 March 2025
        Customer: The soundbar I bought on 10 February keeps losing its Bluetooth connection every few minutes, with
        every device we own. Definitely a fault, nothing has happened to it, it's sat under the TV the whole time.
        I want a refund not a repair.
        Agent: Thanks, I can see the purchase on your account (Voltline Aria soundbar, £199). Do you have a Voltline
        Care plan?
        Customer: no""", False),
    # unopened, 20 days.
    it(VOLT_MONEY, """\
        Return note, Voltline Swindon: item is an unopened wireless router (Netwave AX3000, £139.99) purchased 28 March
        2025. Customer came in on 17 April 2025 to return it because their broadband provider has since sent them a
        free router with their new contract. Receipt provided, factory seal intact, no damage to the box. Customer
        asks for a refund to the Mastercard used.""", False),
    # liquid damage, 3 days.
    it(VOLT_MONEY, {
        "request_date": "2025-07-10",
        "customer": "Freddie Holt",
        "purchase_date": "2025-07-07",
        "item": "Wireless earbuds",
        "price": 149.00,
        "issue": "Right earbud stopped working after they went through the washing machine in a jacket pocket",
        "customer_request": "refund; 'they should be more water resistant than that'",
    }, False),
    # fault, 2 days.
    it(VOLT_MONEY, """\
        From: leo.marchetti@proton.me
        Date: 3 October 2025
        Subject: Faulty monitor

        Hi, I bought a Voltline 27" QHD monitor on 1 October. Out of the box it has a flickering backlight on every
        input - HDMI and DisplayPort, two different laptops, two different cables. No damage, the packaging was
        perfect and I've kept it. Please advise on how to return it.
        Leo""", True),
    # unopened, leap 22 Feb -> 7 Mar 2024 = 14 days.
    it(VOLT_MONEY, """\
        Receipt dated 22/02/2024: Voltline Reading, 1 x SwiftCharge 20000 mAh power bank £39.99, 1 x USB-C cable £9.99
        (cable kept by customer), paid Visa.
        Note from returns desk, 07/03/2024: power bank returned in unopened packaging, seal intact, customer changed
        their mind as their new phone supports wireless charging. Customer asks for the £39.99 back on the Visa card.""",
       True),
    # ---- Pinecrest: approver ------------------------------------------------------------------------------------------
    # 45.00 + 38.50 + 9.95 = 93.45: agent.
    it(PINE_APPROVER, {
        "case": "PC-30114",
        "today": "2025-06-03",
        "customer": "Helen Marsh",
        "order": "PO-558201",
        "items_refunded": [
            {"item": "Trail running socks x3", "amount": 45.00},
            {"item": "Merino buff", "amount": 38.50},
        ],
        "items_kept": [{"item": "Running vest", "amount": 110.00}],
        "shipping_refunded": 9.95,
        "refund_to": "original Visa card",
        "previous_refunds": [],
    }, 0),
    # 62.00 + 49.99 + 44.50 = 156.49: team lead.
    it(PINE_APPROVER, """\
        Case PC-30287 - today 10 June 2025
        Customer: Ahmed Farouk, order PO-560014
        Customer is returning three items from one order: insulated water bottle $62.00, headlamp $49.99, camp mug set
        $44.50. All unused, within the return window. Shipping ($7.50) is not being refunded. Refund to the original
        Mastercard. No refunds on this account before. Agent note: each item is well under my limit so I'll just
        process it unless someone objects.""", 1),
    # 599.99 + 6.99 = 606.98: manager.
    it(PINE_APPROVER, """\
        Hi team, please process a refund for case PC-30402: the customer's Alpine 2 down jacket ($599.99) arrived with
        a torn baffle and feathers leaking from the left sleeve. We agreed to refund the jacket and the $6.99 shipping.
        Back to the original PayPal account. Customer has never had a refund before and has been with us since 2019.
        Photos are on the case.
        - Note from agent Jess, 12 June 2025""", 2),
    # 120 but previous refund 12 days ago: team lead.
    it(PINE_APPROVER, {
        "case": "PC-30555",
        "today": "2025-06-20",
        "customer": "Grace Whitfield",
        "reason": "Hydration pack bladder leaks at the seam",
        "refund_total": 120.00,
        "shipping_refunded": 0.00,
        "refund_to": "original card",
        "previous_refunds": [{"date": "2025-06-08", "amount": 35.00, "case": "PC-30190", "reason": "wrong size gloves"}],
    }, 1),
    # 120, previous refund 45 days ago: agent.
    it(PINE_APPROVER, """\
        Case PC-30601. Today: 20 May 2025.
        Customer: Luis Ortega. Refund agreed: $120.00 for a camping stove that leaked gas at the valve on first use,
        to the original Amex card, no shipping refund (free shipping on the order). Supplier has been told.
        Account history: one previous refund of $22.00 on 5 April 2025 (tent pegs, wrong type). No other refunds.
        Customer is polite and just wants it sorted before a trip next weekend.""", 0),
    # 2480 + 25 = 2505: finance director.
    it(PINE_APPROVER, """\
        Escalation note - case PC-29980, 4 June 2025
        Customer: Dr Miriam Hale. Order: Expedition 4-season tent, $2,480.00, shipping $25.00.
        Tent poles shattered on first pitch at a base camp; supplier confirms a bad batch of poles this season.
        We will refund the tent and the shipping in full to the customer's original card. The customer has returned
        the tent to our Denver warehouse and it has been inspected. No earlier refunds for this customer.""", 3),
    # 2499.00, no shipping: manager.
    it(PINE_APPROVER, {
        "case": "PC-31022",
        "today": "2025-07-01",
        "customer": "Tobias Keller",
        "items_refunded": [{"item": "Carbon touring skis with bindings", "amount": 2499.00}],
        "shipping_refunded": 0.00,
        "shipping_note": "customer paid $40.00 shipping; not refunded because the return is a change of mind",
        "refund_to": "original payment method (Visa)",
        "previous_refunds": [],
    }, 2),
    # exactly 150.00: agent.
    it(PINE_APPROVER, """\
        Case PC-31190, dated 8 July 2025.
        Customer: Nadia Rahman. She is returning a pair of Ridgeline hiking boots ($139.00) that rub at the heel, and
        we are also refunding the $11.00 return postage she paid (label receipt attached). Refund to the original Visa.
        This is the first refund on the account; she has placed six orders since 2023. Boots inspected on arrival and
        resaleable.""", 0),
    # 80 to a different card: manager.
    it(PINE_APPROVER, """\
        [Internal chat, 15 July 2025]
        Agent Dev: Case PC-31255: refund of $80.00 for a tarp that arrived with a tear along the seam. Customer's
        original debit card (ending 4410) has expired and they've asked us to send it to their new credit card
        (ending 9932) instead. No previous refunds.
        Agent Dev: amount is tiny so I assume I can just do it? Who can sign this off?""",
       2),
    # exactly 600.00: team lead.
    it(PINE_APPROVER, {
        "case": "PC-31340",
        "today": "2025-07-22",
        "customer": "Ridge & Rock Climbing Club",
        "items_refunded": [
            {"item": "Climbing harness", "amount": 95.00},
            {"item": "Dynamic rope 60 m", "amount": 245.00},
            {"item": "Belay device and carabiners", "amount": 250.00},
        ],
        "shipping_refunded": 10.00,
        "refund_to": "original card",
        "previous_refunds": [],
        "note": "Order arrived two weeks after the club trip because of a warehouse error",
    }, 1),
    # 1900, previous refund 29 days ago: manager by amount.
    it(PINE_APPROVER, """\
        Case PC-31412, today 30 July 2025.
        Customer: Owen Pritchard. Refund $1,900.00 for a defective e-bike conversion kit (motor controller fails under
        load; confirmed by our workshop), to the original card. No shipping refund.
        History: the customer also got a $40.00 refund on 1 July 2025 for a missing pannier clip.
        Agent note: amount is over my limit, and there's the recent refund too.""", 2),
    # 3100: finance director.
    it(PINE_APPROVER, """\
        Case PC-31588 (business account, Ridgeway Scouts), today 5 August 2025.
        Order of 12 group tents at $250.00 each and a $100.00 freight charge. All tents have faulty zips that split
        when closed; the manufacturer has acknowledged the fault. We'll refund all twelve tents and the freight to the
        original bank card used for the order. No previous refunds. The scout leader has asked for the refund to go
        through before their September camp so they can buy replacements elsewhere.""", 3),
    # ---- Harbour Arts: outcome -----------------------------------------------------------------------------------
    # 1 Sep -> 10 Oct = 39 days.
    it(HARBOUR_OUTCOME, """\
        From: annie.cho@gmail.com
        Date: 1 September 2025
        Subject: Cancel tickets - booking HAC-55120

        Hello,
        I booked 2 tickets for "The Tempest" on Friday 10 October 2025 (£28 each plus the booking fee) back in July.
        Unfortunately we've just found out my cousin's wedding is that same day in Edinburgh, so we can't come. Can I
        cancel and get my money back? If not, could someone else use the tickets?
        Thanks,
        Annie Cho""", "refund_minus_booking_fee"),
    # 20 Mar -> 10 Apr = 21 days.
    it(HARBOUR_OUTCOME, {
        "booking": "HAC-48230",
        "booked_on": "2025-01-14",
        "request_received": "2025-03-20",
        "channel": "web form",
        "show": "Swan Lake (touring ballet)",
        "performance_date": "2025-04-10",
        "tickets": 4,
        "ticket_price": 35.00,
        "booking_fee_per_ticket": 3.00,
        "reason": "Customer's child has a residential school trip that week and the family will be away",
        "requested_outcome": "full refund",
    }, "half_refund"),
    # 27 Nov -> 4 Dec = 7 days.
    it(HARBOUR_OUTCOME, """\
        [Box office phone call notes, 27 Nov 2025, 14:20]
        Caller: Mr D. Asante, booking HAC-60117, 3 tickets at £20 each for the jazz night on Thursday 4 December.
        He has flu, as does his wife, and the doctor has told them to rest for at least a week. He wants to cancel and
        get his money back. He asked whether a doctor's note would help. Told him I would check the policy and email
        him today.""", "exchange_only"),
    # 26 Nov -> 4 Dec = 8 days.
    it(HARBOUR_OUTCOME, """\
        Web cancellation form
        Booking: HAC-60093
        Submitted: 26/11/2025 at 22:41
        Performance: Jazz at the Harbour, 04/12/2025, 19:30
        Tickets: 2 at £22.00 (booking fee £3.00 per ticket)
        Reason given: "Working late that week, my manager has just moved a deadline."
        Outcome requested: "Money back please, I'm not able to come to another date." """, "half_refund"),
    # Centre cancels.
    it(HARBOUR_OUTCOME, """\
        Email from Harbour Arts Centre, 13 March 2025:
        "Dear customer, we're sorry to tell you that the performance of Comedy Late Night on Saturday 15 March 2025 has
        been cancelled by the Centre because the headline act is unwell. We will be in touch about your booking
        HAC-47705 (2 tickets)."
        Customer reply, 14 March 2025: "Very disappointed, we'd booked a hotel for this. What will I get back? I paid
        £25 a ticket and the £3 booking fee on each." """, "full_refund_with_fees"),
    # rescheduled, claim 12 days after announcement.
    it(HARBOUR_OUTCOME, {
        "booking": "HAC-45002",
        "show": "Brass band spring concert",
        "original_performance": "2025-02-22",
        "reschedule_announced": "2025-02-03",
        "reschedule_reason": "roof repairs in the main hall",
        "new_performance_date": "2025-04-26",
        "request_received": "2025-02-15",
        "tickets": 2,
        "customer_message": "We can't make the new date in April as we'll be abroad, please cancel our booking.",
    }, "full_refund_with_fees"),
    # rescheduled, claim 22 days after announcement; new date 45 days away.
    it(HARBOUR_OUTCOME, """\
        Booking HAC-44310 (2 tickets, £24 each + £3 booking fee each).
        On 6 January 2025 the Centre emailed all ticket holders that the folk concert originally on 31 January 2025
        would move to 14 March 2025 because the lead singer needed surgery.
        The customer emailed on 28 January 2025: "I've only just seen the email about the change, it went into my
        spam folder. We can't do March, please cancel our two tickets and refund us." """, "refund_minus_booking_fee"),
    # after the performance.
    it(HARBOUR_OUTCOME, """\
        Subject: Missed the recital
        Sent: Sunday 13 April 2025

        Hi, I had two tickets for the piano recital on Saturday 12 April 2025 (booking HAC-49951) but I completely
        forgot to go - I'd written the wrong date in my diary. I'm so annoyed with myself. Is there anything you can do,
        even a partial refund or a swap to another concert? I'm a regular at the Centre.
        Best wishes, Lorna""", "nothing"),
    # 5 Jun -> 5 Jul = 30 days.
    it(HARBOUR_OUTCOME, """\
        Cancellation request - received 5 June 2025
        Booking HAC-52218, 1 ticket for "Much Ado About Nothing", Saturday 5 July 2025, £30.00 + £3.00 booking fee.
        Customer: Mr Felix Adebayo. He is moving to Canada at the end of June for a new job and won't be in the
        country. He asks whether the booking fee can be refunded as well since "it's a whole month away". """,
       "refund_minus_booking_fee"),
    # same day as performance.
    it(HARBOUR_OUTCOME, """\
        [Box office, 10:05 on 19 September 2025]
        Customer emailed: "Our babysitter has cancelled for tonight's performance of Blood Brothers, so we can't make
        it. Can we get a refund on our 2 tickets please? We've been looking forward to it for months and we'd hate to
        just lose the money." Booking HAC-57440, 2 tickets at £32.00. The show runs until 27 September.""",
       "exchange_only"),
    # ---- Harbour Arts: money back? ---------------------------------------------------------------------------------
    # 1 Aug -> 10 Sep = 40 days.
    it(HARBOUR_MONEY, """\
        Date: 1 August 2025
        Booking HAC-54906, 2 tickets for the opera gala on Wednesday 10 September 2025 (£45.00 each + £3.00 booking
        fee each), booked in May.
        Customer writes: "My husband's knee surgery has been moved to that week, so sadly we have to cancel. Sorry for
        the inconvenience - we'll book again for the Christmas season." """, True),
    # 15 Oct -> 20 Oct = 5 days.
    it(HARBOUR_MONEY, {
        "booking": "HAC-58870",
        "booked_on": "2025-08-30",
        "request_received": "2025-10-15",
        "show": "Stand-up showcase",
        "performance_date": "2025-10-20",
        "tickets": 2,
        "ticket_price": 18.50,
        "booking_fee_per_ticket": 3.00,
        "customer_message": "Can't come any more, my shifts changed. Please refund to my card.",
    }, False),
    # Centre cancelled.
    it(HARBOUR_MONEY, """\
        Hi,
        I got a text saying the children's theatre show "The Gruffalo's Friends" on 8 June 2025 has been cancelled by
        the Centre because of a flood in the studio theatre. I had 5 tickets (booking HAC-52090) for my daughter's
        birthday party. It's 2 June today. What happens now? Do I need to do anything to get the money back, or will it
        just appear on my card?
        Priti""", True),
    # 18 Feb -> 28 Feb = 10 days.
    it(HARBOUR_MONEY, """\
        Box office call log - 18 February 2025
        Caller: Ms Joanna Wirth, booking HAC-47120 (1 ticket at £16.00, poetry evening, Friday 28 February 2025).
        She has to go to a conference in Berlin that week and asks to cancel. She doesn't want to exchange to another
        date because she "isn't sure of her plans". Told her we'd confirm what she's entitled to by email.""", True),
    # after performance.
    it(HARBOUR_MONEY, """\
        Subject: Missed the show
        Sent: 23 November 2025

        We were stuck on the motorway for two hours after an accident near junction 9 and missed the start of the
        Saturday 22 November performance of "An Inspector Calls" entirely, so we went home. It really wasn't our
        fault. We'd like a refund for our 3 tickets (booking HAC-59984) - or at least to be able to see it another
        night. I can send a screenshot of the traffic news.
        Marcus and Dee Holloway""", False),
    # rescheduled, claim after 14 days (20 days), new date 6 days away.
    it(HARBOUR_MONEY, {
        "booking": "HAC-50231",
        "show": "Tribute night: The Beatles",
        "reschedule_announced": "2025-05-01",
        "original_performance": "2025-05-09",
        "new_performance_date": "2025-05-27",
        "request_received": "2025-05-21",
        "tickets": 4,
        "ticket_price": 27.50,
        "customer_message": "The new date doesn't work for us, we'd like our money back please.",
    }, False),
    # 12 Dec -> 19 Dec = 7 days.
    it(HARBOUR_MONEY, """\
        Booking HAC-61502 - Christmas carol concert, Friday 19 December 2025, 4 tickets at £15.00 (+ £3.00 booking fee
        each).
        Cancellation requested online on Friday 12 December 2025.
        Reason: "Family illness, my mother has been taken into hospital and we'll be with her all next week. Please
        refund us, I'm sure you can resell the seats as the concert is nearly sold out." """, False),
    # 2 Jan -> 31 Jan = 29 days.
    it(HARBOUR_MONEY, """\
        [Email, 2 January 2025]
        "Hello, happy new year. Please could you cancel my booking HAC-44870 for the string quartet on 31 January?
        That's 2 tickets in row F. I've been called for jury service for the whole of that week and the court may sit
        late, so I can't be sure to make it. I'd rather not exchange as I'm not sure when I'll be free.
        Many thanks, Geoffrey Lamb\"""", True),
    # ---- Streamly: outcome ----------------------------------------------------------------------------------------
    # annual, 10 days.
    it(STREAMLY_OUTCOME, """\
        Hi Streamly,
        I was charged £95.88 for the annual plan on 10 January 2025 when my free trial ended. I forgot to cancel the
        trial - totally my fault, I know - and I don't want to keep the subscription because I've barely watched
        anything. I cancelled in the app today, 20 January. Can I have the £95.88 back please? I haven't had any refund
        from you before.
        Mo Hussain""",
       "full_refund"),
    # annual, 49 days.
    it(STREAMLY_OUTCOME, {
        "account": "sl-884201",
        "customer": "Dana Whitmore",
        "plan": "Annual Premium",
        "annual_charge": {"date": "2024-11-01", "amount": 119.88},
        "cancelled_on": "2024-12-20",
        "refund_requested_for": "annual charge of 2024-11-01",
        "account_status": "good standing",
        "other_charges": [],
        "customer_message": "I'm moving abroad and your service isn't available there. Can I get something back?",
    }, "prorated_refund"),
    # annual, 108 days.
    it(STREAMLY_OUTCOME, """\
        Support ticket #55120 (opened 1 October 2024)
        Customer message: "Hi, I renewed my annual plan on 15 June and I've barely used it since the summer because
        I've started a new job with long hours. I cancelled today. Can I get the rest of the year refunded? That's more
        than eight months I won't use!"
        Plan: Annual Standard, £79.99, charged 15 June 2024. No other charges. Account in good standing.""",
       "no_refund"),
    # monthly, no exception.
    it(STREAMLY_OUTCOME, """\
        [Chat, 18 March 2025]
        Customer: I cancelled my monthly plan today but I was charged £10.99 on the 8th for this month. Since I'm not
        going to use the rest of it, can I get a refund for the rest of March? That's 3 weeks
        Agent: Thanks for reaching out. I can see your Monthly Standard plan and the £10.99 charge on 8 March.
        Customer: yeah that's the one. I was only charged once""", "no_refund"),
    # monthly, renewal 10h50 after cancelling.
    it(STREAMLY_OUTCOME, {
        "account": "sl-902117",
        "customer": "Priyanka Shah",
        "plan": "Monthly Basic",
        "cancelled_at": "2025-03-04T21:10:00Z",
        "charges": [
            {"date": "2025-02-05T08:00:00Z", "amount": 6.99, "type": "monthly renewal"},
            {"date": "2025-03-05T08:00:00Z", "amount": 6.99, "type": "monthly renewal"},
        ],
        "refund_requested_for": "charge of 2025-03-05",
        "customer_message": "Why was I charged after I cancelled? I want that money back.",
    }, "full_refund"),
    # duplicate charge.
    it(STREAMLY_OUTCOME, """\
        Hello,
        my bank statement shows two charges of £10.99 from STREAMLY*SUBS on 2 May 2025, both for my monthly plan for
        May (same reference period on the receipts: 2 May - 1 June). I only have one account and one profile. Please
        refund the extra one. I'm not cancelling, I just don't want to pay twice.
        Thanks, Imogen Baird
        Account: sl-845530""", "full_refund"),
    # ToS closure, annual day 5.
    it(STREAMLY_OUTCOME, """\
        Account sl-771520 was closed by Streamly's trust and safety team on 20 August 2025 for reselling shared
        logins to 14 other people (terms of service violation, confirmed by a log review). The annual plan (£119.88)
        had been charged once, on 15 August 2025. The customer now asks for the annual charge back, saying "you
        closed my account after five days so I should get it all back". No duplicate charges on the account.""",
       "no_refund"),
    # annual, day 90 exactly.
    it(STREAMLY_OUTCOME, """\
        Ticket #60944 - 2 May 2025
        Plan: Annual Family, charged 1 February 2025, £143.88.
        Customer (Abena Owusu) cancelled today and asks what she can get back: "We've decided to cut down on
        subscriptions. I know it's been three months so I don't expect all of it." Account in good standing, no
        duplicate charges, no previous refunds.""", "prorated_refund"),
    # annual, day 15.
    it(STREAMLY_OUTCOME, {
        "account": "sl-930064",
        "customer": "Jordan Tate",
        "plan": "Annual Standard",
        "annual_charge": {"date": "2025-08-01", "amount": 79.99},
        "cancelled_on": "2025-08-16",
        "account_status": "good standing",
        "duplicate_charges": False,
        "customer_message": "Please refund my annual subscription in full, I only watched one film.",
    }, "prorated_refund"),
    # monthly, renewal 72h after cancelling.
    it(STREAMLY_OUTCOME, """\
        Billing escalation
        Customer: Wen Li, account sl-918802, Monthly Premium plan.
        The customer cancelled the plan on 1 June 2025 at 09:00 (confirmation email sent). A renewal charge of £14.99
        was nevertheless taken on 4 June 2025 at 09:00, which is her normal billing day. She noticed it on 20 June and
        asks for it to be refunded. There is only one charge for June.""", "no_refund"),
    # ---- Kettleby: covered? -------------------------------------------------------------------------------------------
    # within 2 years.
    it(KETTLEBY_COVERED, """\
        Warranty claim - submitted 1 August 2025
        Customer: Fiona MacLeod, Inverness
        Product: Kettleby StandPro stand mixer, serial KSP-2231907
        Purchase date: 12 March 2024 (receipt from Harlow & Sons attached)
        Registered online: no
        Fault: motor stops under light load (a single batch of bread dough) and smells of burning. Used at home for
        baking only, about twice a week, never opened or repaired. Customer asks for a repair or replacement.""",
       True),
    # year 3, registered in 23 days.
    it(KETTLEBY_COVERED, {
        "claim_date": "2024-09-01",
        "customer": "Arjun Nair",
        "product": "Kettleby AirCrisp air fryer",
        "serial": "KAC-5519024",
        "purchase_date": "2022-05-10",
        "registered_online": "2022-06-02",
        "proof_of_purchase": "invoice with date",
        "fault": "heating element failed; fan still runs; no damage or misuse",
        "use": "household",
        "previous_repairs": "none",
    }, True),
    # year 3, registered in 72 days.
    it(KETTLEBY_COVERED, """\
        Hello Kettleby,
        My bread maker (model BM-450, bought 20 April 2022, receipt attached) stopped kneading last week - the paddle
        motor just hums and the paddle doesn't turn. I registered it on your website on 1 July 2022 when I finally
        found the leaflet. Today is 15 July 2024. It has only ever been used in my kitchen, about once a week, and it
        has never been opened or repaired. Can you fix it under warranty? I'm happy to pay for labour if I have to.
        Thanks, Elaine Forbes""", False),
    # liquid spill.
    it(KETTLEBY_COVERED, """\
        Claim received 4 August 2025
        Product: Kettleby toaster oven TO-22, bought 3 months ago (receipt dated 2 May 2025), registered online the
        same week.
        Customer statement: "The control panel stopped working after my son knocked a mug of tea over onto it. It dried
        out but now the display is blank and none of the buttons respond. It's only three months old so it should be
        under warranty." """, False),
    # commercial use.
    it(KETTLEBY_COVERED, {
        "claim_date": "2025-04-02",
        "customer": "Bean There Cafe Ltd",
        "product": "Kettleby barista espresso machine",
        "purchase_date": "2024-10-19",
        "proof_of_purchase": "VAT invoice",
        "registered_online": "2024-10-21",
        "fault": "group head leaking and pressure dropping below 6 bar",
        "use": "Used in our cafe, about 150 coffees a day",
        "previous_repairs": "none",
    }, False),
    # consumable filter.
    it(KETTLEBY_COVERED, """\
        Email, 18 August 2025:
        "Our Kettleby water purifier jug (bought 9 months ago, receipt dated 14 November 2024) has a carbon filter that
        has gone slimy and the water tastes odd. The jug itself is fine. We've only had it in the fridge at home. We'd
        like a free replacement filter under the warranty please, as the leaflet says 2 years' cover.
        Regards, the Fenwick family\"""",
       False),
    # 15 Jan 2023 -> 14 Jan 2025, within 2 years.
    it(KETTLEBY_COVERED, """\
        Date of claim: 14 January 2025
        Product: Kettleby cordless kettle CK-17 (brushed steel)
        Purchased: 15 January 2023 (till receipt from Denholm's Department Store)
        Registered online: no
        Fault: the switch no longer clicks on and the light doesn't come on; the base has power (tested with another
        kettle). Household use, never repaired or opened. Limescale filter cleaned regularly.""", True),
    # unauthorised repair.
    it(KETTLEBY_COVERED, """\
        Hi,
        My Kettleby dishwasher DW-60 (bought in June 2024, I have the invoice, registered online) had a drainage
        problem in March, so a local handyman replaced the drain pump for me because your earliest engineer visit was
        three weeks away. Now in August the control board has died completely - no lights at all. Can you send an
        engineer under warranty? It's only a year and two months old.
        Thanks, Callum Reid""", False),
    # year 3, registered on purchase day.
    it(KETTLEBY_COVERED, """\
        Claim dated 8 October 2025
        Product: Kettleby slow cooker SC-6 (6 litre), purchased 30 November 2022, registered online the same day
        (order confirmation and registration email attached).
        Fault: heating element has failed; the pot stays cold on all settings. Domestic use only, never dropped, never
        opened or repaired. Customer accepts that labour may be charged.""", True),
    # ---- Kettleby: cover level -------------------------------------------------------------------------------
    # year 3, registered in 45 days.
    it(KETTLEBY_LEVEL, {
        "claim_date": "2025-02-11",
        "customer": "Samira Haddad",
        "product": "Kettleby HandiVac cordless vacuum",
        "serial": "KHV-0098812",
        "purchase_date": "2022-09-30",
        "registered_online": "2022-11-14",
        "proof_of_purchase": "till receipt",
        "fault": "motor cuts out after a few seconds even with a full charge; battery tested fine",
        "use": "household",
        "previous_repairs": "none",
    }, 1),
    # year 3, registered on day 60 exactly.
    it(KETTLEBY_LEVEL, """\
        Warranty claim, 10 May 2025
        Customer: Philippa Grant
        Product: Kettleby juicer JX-3, bought 1 March 2023 (receipt), registered online on 30 April 2023.
        Fault: the motor coupling has sheared so the basket no longer spins. No misuse, used for soft fruit at home
        only, never opened or repaired. The customer asks whether she has to pay anything for the repair.""", 1),
    # year 1.
    it(KETTLEBY_LEVEL, """\
        Hi,
        my Kettleby microwave MW-25 (receipt dated 14 February 2025, bought at Currington's) has stopped heating - the
        light and turntable work and it makes the usual humming noise, but the food stays cold. It's only been used at
        home, never dropped, and nobody has opened it. Today is 3 September 2025. I haven't registered it online - is
        that a problem?
        Thanks, Dominic""", 2),
    # 30 Jun 2023 -> 29 Jun 2025: within 2 years.
    it(KETTLEBY_LEVEL, {
        "claim_date": "2025-06-29",
        "customer": "Irene Castillo",
        "product": "Kettleby steam iron SI-9",
        "purchase_date": "2023-06-30",
        "registered_online": None,
        "proof_of_purchase": "bank card receipt with date and store name",
        "fault": "no steam; water tank not leaking; descaled as instructed",
        "use": "household",
        "previous_repairs": "none",
    }, 2),
    # year 4.
    it(KETTLEBY_LEVEL, """\
        Customer email, 5 March 2025:
        "Hello, my Kettleby food processor FP-800 stopped working - it powers on but the blade doesn't turn. I bought
        it in January 2021 and registered it on your website straight away because the shop said it would give me an
        extra year of cover. The receipt is in the drawer. Can you repair it under the warranty? It has only been used
        at home and I've looked after it very well.
        Regards, Hilary Dunmore\"""", 0),
    # year 3, never registered.
    it(KETTLEBY_LEVEL, """\
        Warranty request received 20 November 2025
        Product: Kettleby rice cooker RC-10
        Purchase date: 6 August 2023 (invoice attached)
        Registered online: no - the customer says she "didn't know you had to"
        Fault: the cooker no longer switches to 'keep warm' and burns the rice at the bottom.
        Use: household. Never opened or repaired.""", 0),
    # gasket: consumable.
    it(KETTLEBY_LEVEL, """\
        Claim of 8 July 2025
        Customer: Mr Leonard Osei
        Product: Kettleby pressure cooker PC-5, bought 2 months ago (receipt dated 6 May 2025), registered online.
        Problem: the sealing gasket has split and steam escapes round the lid, so it won't come up to pressure. The
        body, lid and valve are fine. Customer asks for a free repair under the warranty.""", 0),
    # year 2, late registration irrelevant.
    it(KETTLEBY_LEVEL, {
        "claim_date": "2025-05-19",
        "customer": "Gordon Blake",
        "product": "Kettleby fan heater FH-2",
        "purchase_date": "2024-01-08",
        "registered_online": "2024-05-30",
        "proof_of_purchase": "order confirmation email",
        "fault": "fan runs but no heat on any setting",
        "use": "home office",
        "previous_repairs": "none",
    }, 2),
    # year 3, registered in 10 days.
    it(KETTLEBY_LEVEL, """\
        From: s.burke@btinternet.com
        Subject: Grinder warranty

        Our Kettleby coffee grinder CG-40 was bought on 2 April 2023 and I registered it on the 12th of that month.
        Today (19 June 2025) the burrs stopped turning - the motor runs but nothing moves. It's only used at home for
        our morning coffee, and it has never been taken apart. Receipt attached. Please let me know what it will cost.
        Sinead Burke""", 1),
    # ---- Lakeside: price adjustment ---------------------------------------------------------------------------------
    # bought 2 Mar, drop 10 Mar, asked 11 Mar.
    it(LAKESIDE_ADJUST, """\
        Hi Lakeside,
        I bought the Alba 6-piece pan set (stainless, model AL-600) for £129.00 on 2 March 2025 at your Exeter store.
        On 10 March the price on your website went down to £99.00 - it's listed as the normal price now, there's no
        sale badge, coupon or bundle, and the store shelf label says the same. Today is 11 March. Could I get the £30
        back please? I haven't asked for a price adjustment before. Receipt attached.
        Thanks, Hannah Woods""", True),
    # Flash Deal.
    it(LAKESIDE_ADJUST, {
        "customer": "Ray Dunn",
        "request_date": "2025-05-14",
        "item": "Pulse 3 robot mop, white",
        "purchase_date": "2025-05-08",
        "price_paid": 249.00,
        "new_price": 199.00,
        "new_price_type": "Flash Deal (48 hours only, 13-14 May)",
        "same_model_size_colour": True,
        "previous_adjustments": 0,
        "customer_message": "Saw your Flash Deal this morning, please refund the £50 difference.",
    }, False),
    # competitor price.
    it(LAKESIDE_ADJUST, """\
        [Chat, 20 June 2025]
        Customer: I bought a Lumo desk fan (the 30 cm white one) from you on 15 June for £45. Argos has the exact same
        fan for £36 today - same model number. Can you refund me the difference?
        Agent: Thanks, I can see your order. Our own price for the Lumo is still £45.
        Customer: ok but it's the same fan, so can you match it?""", False),
    # drop 16 days after purchase.
    it(LAKESIDE_ADJUST, """\
        Price adjustment request
        Purchase: 20 April 2025, Vantage 32" monitor, model V32Q, £219.00 (receipt no. LM-8820144)
        Lakeside regular price reduced to £189.00 on 6 May 2025 (permanent price change, not a promotion)
        Customer request submitted: 6 May 2025 - "I saw it went down today, can I have £30 back?"
        Previous adjustments on this item: none""", False),
    # drop and request on day 14.
    it(LAKESIDE_ADJUST, """\
        Email of 15 July 2025 from Colin Reyes:
        "Hi, I bought the Nordic 4-seat garden set (grey) on 1 July for £399. Your regular price dropped to £349 this
        morning - it's not in the sale section, just the normal listing. Can you refund the £50? Order LK-2290413."
        Lakeside records confirm a regular price change on 15 July 2025 for this product (same colour and size). No
        earlier adjustment for this item; no coupon or bundle on the new price.""", True),
    # different size.
    it(LAKESIDE_ADJUST, {
        "request_date": "2025-09-09",
        "customer": "Tamsin Hale",
        "purchase_date": "2025-09-03",
        "item_bought": "Serene duvet cover set, king size, sage",
        "price_paid": 85.00,
        "item_reduced": "Serene duvet cover set, double size, sage",
        "reduced_regular_price": 60.00,
        "king_size_current_price": 85.00,
        "customer_message": "Your Serene set is £25 cheaper now, please refund the difference",
    }, False),
    # second adjustment.
    it(LAKESIDE_ADJUST, """\
        Customer account notes - Vera Lindgren
        Bought a Tern e-scooter (model T3, black) on 4 October 2025 for £499.
        8 October: we reduced the regular price to £469; she received a £30 price adjustment on 9 October.
        13 October: the regular price dropped again to £449 (permanent change, no promotion). She asked the same day
        for another £20, saying "it's still within 14 days of my purchase".""", False),
    # regular reduction, asked on day 9.
    it(LAKESIDE_ADJUST, """\
        [Store service desk, 11 November 2025]
        Customer has a receipt for a Brio cordless drill (model BR18, same colour and kit - two batteries and a case)
        bought on 2 November for £89.99. Lakeside's shelf and website regular price has been £74.99 since 8 November;
        there is no promotion, coupon or bundle attached to it. He hasn't had an adjustment before and asks for the
        £15.00 difference back on his card.""", True),
    # clearance.
    it(LAKESIDE_ADJUST, """\
        Hi,
        I bought a Cosmo standing lamp (brass, 160 cm) for £70 on 20 January 2025. I've just seen the same lamp in your
        clearance section for £42, same colour and everything. It's 27 January today, so well within your 14 days.
        Please refund the difference to my card - that's £28.
        Ellie Frost""", False),
    # drop on day 1, asked on day 3.
    it(LAKESIDE_ADJUST, {
        "request_date": "2025-12-05",
        "customer": "Marco Bellini",
        "purchase_date": "2025-12-02",
        "item": "Kinetic running shoes, model K2, size 9, blue",
        "price_paid": 110.00,
        "new_price": 95.00,
        "new_price_type": "regular price (permanent reduction from 3 December)",
        "same_model_size_colour": True,
        "previous_adjustments": 0,
        "customer_message": "Noticed the price drop on your app. Could I have the £15 back?",
    }, True),
    # leap year: bought 20 Feb 2024, drop 4 Mar (13 days), asked 5 Mar (14 days).
    it(LAKESIDE_ADJUST, """\
        Price adjustment case PA-20431
        Receipt: 20/02/2024, Halo air purifier HP-200 (white), £159.00, paid by debit card.
        Lakeside regular price for the HP-200 (white) changed to £139.00 on 04/03/2024.
        Customer request by email: 05/03/2024 ("Saw it's £20 cheaper now, could I get the difference?").
        No coupons, bundles or promotions on either date. No earlier adjustment.""", True),
    # ---- Brightwell: refund method -----------------------------------------------------------------------------------
    # card, 40 days.
    it(BRIGHTWELL_METHOD, """\
        Approved refund - Brightwell online order BW-449120
        Today: 14 May 2025
        Purchase date: 4 April 2025
        Items: linen shirt (returned), chinos (kept)
        Paid: in full by Visa debit ending 2231 (£98.00)
        Refund amount: £64.00 (shirt only)
        Return channel: returned by post, received at the warehouse 12 May
        Customer note: "Please refund as quickly as possible." """, "same_card"),
    # card, 200 days.
    it(BRIGHTWELL_METHOD, {
        "order": "BW-400718",
        "customer": "Alan Pearce",
        "today": "2024-09-17",
        "purchase_date": "2024-03-01",
        "payment": [{"method": "Mastercard", "amount": 210.00}],
        "refund_amount": 210.00,
        "refund_reason": "coffee machine faulty, manufacturer confirmed",
        "return_channel": "in store",
        "customer_preference": "back to my Mastercard",
    }, "bank_transfer"),
    # gift card in full.
    it(BRIGHTWELL_METHOD, """\
        Till note, Brightwell Cheltenham, 2 March 2025
        Customer returned a pair of Chelsea boots in store (bought 22 February 2025, wrong size, no replacement size in
        stock). The receipt shows the £75.00 was paid entirely with a Brightwell gift card she was given for her
        birthday. Customer would really prefer cash "because I don't shop here very often". Refund approved by the
        duty manager.""", "new_gift_card"),
    # cash, in store.
    it(BRIGHTWELL_METHOD, """\
        Till note, Brightwell Norwich, 19 July 2025:
        Customer returning a glass kettle bought in this store on 16 July for £29.99, paid in cash (receipt shows CASH
        TENDERED £30.00, CHANGE £0.01). The lid hinge snapped on the second use. Refund approved. The customer asked
        whether we could transfer it to his bank account instead because he "doesn't carry cash", but he is here at
        the till now.""", "cash"),
    # cash, by post.
    it(BRIGHTWELL_METHOD, {
        "order": "BW-470455",
        "customer": "Gloria Mendes",
        "today": "2025-08-04",
        "purchase_date": "2025-07-20",
        "payment": [{"method": "cash (paid at store for home delivery)", "amount": 120.00}],
        "refund_amount": 120.00,
        "refund_reason": "armchair fabric different from the sample",
        "return_channel": "returned by post (courier collection)",
    }, "bank_transfer"),
    # part gift card, part card.
    it(BRIGHTWELL_METHOD, """\
        Order BW-462201
        Purchased: 30 May 2025. Today: 12 June 2025.
        Total £140.00, paid £50.00 with a Brightwell gift card and £90.00 with an Amex card ending 1004.
        Whole order (two dresses) returned by post; full refund approved.
        Customer's message: "Could all of it go back on my Amex? I've used up the gift card and I don't want another
        one." """, "split"),
    # PayPal, 20 days.
    it(BRIGHTWELL_METHOD, """\
        Refund approved for order BW-455890 (bedside lamp, arrived with a cracked base).
        Payment method: PayPal (£38.50).
        Ordered 10 March 2025; today is 30 March 2025.
        Customer returned the item by courier and asked "can you put it on my debit card? my PayPal is linked to an old
        account". """, "paypal"),
    # PayPal, 181 days.
    it(BRIGHTWELL_METHOD, {
        "order": "BW-431007",
        "customer": "Harvey Quinn",
        "today": "2025-07-05",
        "purchase_date": "2025-01-05",
        "payment": [{"method": "PayPal", "amount": 56.00}],
        "refund_amount": 56.00,
        "refund_reason": "jacket zip broke, faulty under the 1-year guarantee",
        "return_channel": "post",
    }, "bank_transfer"),
    # card, exactly 180 days.
    it(BRIGHTWELL_METHOD, """\
        Today: 6 February 2025.
        Warranty refund approved for a Brightwell cordless vacuum bought on 10 August 2024 for £179.00, paid by Visa
        credit card ending 9012. The motor failed and the repair centre has no parts. Customer is returning it in store
        and asks whether the money will go back on the card or somewhere else, as the card is still active.""",
       "same_card"),
    # card, customer asks for account credit.
    it(BRIGHTWELL_METHOD, """\
        [Chat, 9 October 2025]
        Customer: Hi, my refund for order BW-480633 was approved (£42.00 for a throw, bought 9 September, paid with my
        Monzo debit card). Could you just put it on my Brightwell account as credit instead? I shop with you all the
        time and it's easier than waiting for the bank.
        Agent: Thanks, let me look at how this refund needs to be paid.""",
       "same_card"),
    # ---- Tradeloft guarantee: count failed conditions -------------------------------------------------------------------
    # all met: delivered 3 Mar, msg 5 Mar, claim 10 Mar, photos, checkout, $240.
    it(GUARANTEE_FAILS, {
        "claim": "TL-77012",
        "listing": "Leather messenger bag, 'genuine full-grain leather'",
        "order_total": 240.00,
        "payment": "Tradeloft checkout (card)",
        "delivered": "2025-03-03",
        "first_message_to_seller": "2025-03-05T10:00",
        "seller_replied": False,
        "claim_opened": "2025-03-10T09:30",
        "photos": 3,
        "buyer_statement": "Listing said 'genuine leather', the bag is clearly PU and peeling at the handles.",
    }, 0),
    # not met: messaged only 20 h before claim. others ok -> 1.
    it(GUARANTEE_FAILS, """\
        Claim TL-77180 - "Vintage film camera: listing said fully working, shutter is jammed"
        Order total: $185.00, paid through Tradeloft checkout. Delivered 12 May 2025.
        Buyer messaged the seller on 14 May at 16:00 asking whether the shutter had been tested. The seller replied
        that evening saying it "worked when posted". The buyer opened this claim on 15 May at 12:00. Two photos of the
        jammed shutter and a short video are attached.""", 1),
    # not met: no photos; off-platform bank transfer -> 2.
    it(GUARANTEE_FAILS, """\
        Claim TL-77305 (opened 20 June 2025)
        Item: set of 6 hand-painted mugs, listed as "perfect condition, no chips". Buyer says 2 arrived chipped.
        Order total: $90.00. The seller asked the buyer to pay by direct bank transfer to get a $10 discount, which the
        buyer did; the order was then marked as sold on Tradeloft.
        Delivered 8 June 2025. Buyer messaged the seller on 10 June, no reply.
        No photos provided yet - the buyer wrote "I'll send them later when I've got better light".""", 2),
    # not met: claim day 34; price 1,620; no message before claim -> 3.
    it(GUARANTEE_FAILS, {
        "claim": "TL-77420",
        "listing": "Ultrabook laptop, 32 GB RAM, 1 TB SSD",
        "order_total": 1620.00,
        "payment": "Tradeloft checkout (PayPal)",
        "delivered": "2025-07-01",
        "first_message_to_seller": None,
        "claim_opened": "2025-08-04",
        "photos": 5,
        "buyer_statement": "Laptop listed as 32 GB RAM; system information shows 16 GB. Didn't notice until I ran a "
                           "heavy job last week.",
    }, 3),
    # all met: delivered 1 Sep, messaged 2 Sep 09:00, claim 30 Sep 10:00, photos, checkout, $1,500 exactly -> 0.
    it(GUARANTEE_FAILS, """\
        Claim TL-78011 | E-bike listed as "battery 90% health"; the bike shop's test shows 61%.
        Order total: $1,500.00 via Tradeloft checkout (bike $1,420.00 + shipping $80.00). Delivered 1 September 2025.
        Buyer messaged the seller on 2 September at 09:00; the seller refused to help and said the battery "must have
        been damaged in transit". Claim opened 30 September at 10:00 with the battery test report and two photos of
        the display.""", 0),
    # not met: claim 31 days after delivery -> 1.
    it(GUARANTEE_FAILS, """\
        Claim TL-78144
        Buyer: "The 'solid oak' sideboard is veneered chipboard - you can see it where the back panel meets the side."
        Delivered 2 October 2025; buyer messaged the seller on 20 October; seller said they "believed it was oak".
        Claim opened 2 November 2025.
        Paid $420.00 through Tradeloft checkout. Photos: 4 (close-ups of the chipboard edge and the label inside the
        drawer).""", 1),
    # not met: price 1,850; paid cash (off platform); no photos -> 3.
    it(GUARANTEE_FAILS, {
        "claim": "TL-78290",
        "listing": "Carbon road bike, 'no damage, never crashed'",
        "order_total": 1850.00,
        "payment": "cash on collection, arranged with the seller by message",
        "delivered": "2025-10-10",
        "first_message_to_seller": "2025-10-11T08:15",
        "claim_opened": "2025-10-16T19:00",
        "photos": 0,
        "buyer_statement": "Road bike frame has a crack that was hidden by a sticker. My mechanic found it.",
    }, 3),
    # not met: msg 47 h before claim; price 1,505 -> 2.
    it(GUARANTEE_FAILS, """\
        Claim TL-78402 - designer sofa listed as "no stains or tears"; the buyer found a large stain under the seat
        cushions.
        Order total $1,505.00 (sofa $1,430.00 + delivery $75.00), paid with Tradeloft checkout. Delivered 3 November
        2025.
        Buyer messaged the seller on 4 November at 10:00 and opened the claim on 6 November at 09:00.
        Photos: 3 (stain, cushion label, full sofa).""", 2),
    # all met -> 0.
    it(GUARANTEE_FAILS, """\
        Claim TL-78555
        The buyer bought "a complete 1,000-piece jigsaw, all pieces present, done once" for $28.00 via Tradeloft
        checkout. Delivered 14 November 2025. After finishing it she counted 972 pieces and messaged the seller on 15
        November; the seller didn't reply. She opened the claim on 19 November with a photo of the finished puzzle
        showing the gaps.""", 0),
    # not met: no message to seller; no photos -> 2.
    it(GUARANTEE_FAILS, {
        "claim": "TL-78610",
        "listing": "Trainers, UK size 10, 'worn twice'",
        "order_total": 64.00,
        "payment": "Tradeloft checkout (card)",
        "delivered": "2025-11-20",
        "first_message_to_seller": None,
        "claim_opened": "2025-11-21T12:00",
        "photos": 0,
        "buyer_statement": "Trainers listed as size 10 UK; the label inside says size 9. They don't fit at all.",
    }, 2),
]
