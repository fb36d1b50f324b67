"""Sentiment and urgency: polarity, anger, sarcasm, recommendation, emotion, star rating, urgency."""

from ._kit import choice, it, noul, score

DOMAIN = "sentiment_urgency"
PREFIX = "sentiment"

NEGATIVE = noul("Is the overall sentiment of this text negative?")
ANGRY = noul(
    "Is the writer angry?",
    true="Clear anger, outrage or hostility.",
    false="Calm, happy, neutral, or only mildly disappointed or sad.",
)
SARCASM = noul("Is the writer being sarcastic?")
RECOMMEND = noul("Would this reviewer recommend the product or place to others?")

POLARITY = choice(
    "What is the overall sentiment of this text?",
    {"positive": None, "negative": None, "neutral": "factual or no feeling expressed", "mixed": "clear positives and negatives"},
)
EMOTION = choice(
    "Which emotion does the writer express most strongly?",
    {
        "joy": None,
        "gratitude": None,
        "anger": None,
        "sadness": None,
        "fear": "worry or anxiety",
        "confusion": None,
    },
)
STARS = score(
    "Predict the star rating the reviewer gave.",
    ["1 star", "2 stars", "3 stars", "4 stars", "5 stars"],
)
POLITENESS = score(
    "How polite is this message?",
    ["rude", "neutral", "polite"],
)
LIKERT = score(
    "How strongly does the respondent agree with the statement \"Setting up the product was easy\"?",
    [
        "strongly disagree",
        "disagree",
        "somewhat disagree",
        "neither agree nor disagree",
        "somewhat agree",
        "agree",
        "strongly agree",
    ],
)
URGENCY = score(
    "How urgently does this message need a response?",
    [
        "no time pressure",
        "within a few days",
        "today",
        "within the hour",
        "immediately: safety, security or serious money at risk right now",
    ],
)

LONG_REVIEW = """\
Review of the Kestrel K2 espresso machine — "Great coffee, frustrating machine" (verified purchase, 4 months of use)

I've put off writing this because my feelings are genuinely split, so here's the long version for anyone who is
about to spend this much money.

Background: I've been making espresso at home for about six years. Before the K2 I had an entry-level single
boiler machine and a decent burr grinder. I upgraded because I wanted to steam milk and pull shots at the same time,
and because the K2's reviews praised its temperature stability. I paid full price, no discount, and I bought it
from the manufacturer directly.

Build and looks: Beautiful. Brushed steel, solid portafilter, a proper pressure gauge, and a drip tray that actually
holds a day's worth of water. It looks like a professional machine and my partner, who does not care about coffee at
all, said it was the nicest thing in the kitchen. The steam knob has a lovely progressive feel. The cup warmer on top
gets properly warm. 10/10 on this front.

Espresso quality: This is where the K2 earns its money. Once dialled in, the shots are the best I've made at home —
sweeter and more consistent than on my old machine, and the PID temperature control means I can go slightly hotter
for lighter roasts. Back-to-back shots for guests come out the same. The pre-infusion setting is a revelation for
light Ethiopian beans. If you judge the machine only by what ends up in the cup, it's excellent.

Milk: The steam wand is powerful — microfoam for two flat whites takes about 25 seconds. Latte art became much
easier. The wand is double-walled so milk doesn't bake onto it as much. Very happy.

Now the problems.

1. Warm-up time. The manual says 15 minutes; in practice the group head isn't properly hot for about 25 minutes.
That's fine at weekends but annoying on workdays. There's a timer function, but it's hidden in a menu that requires
holding two buttons for five seconds while the machine is off, and it resets if the power is cut.

2. Software. The little display shows temperature, shot timer and settings, but the menus are confusing and the
translation is odd ("Pressure of the water is the ready"). Twice the display froze and I had to unplug the machine.
A firmware update was promised "soon" in an email from support in February. Nothing yet.

3. The water tank. It's at the back and you have to pull the machine forward to lift it out. With my cupboards
above, I end up filling it with a jug, which drips down the back. A side-fill or front-fill tank would fix this.

4. Customer service. At month three the machine started leaking slightly from under the drip tray. Support asked for
a video, which I sent. They then took nine days to reply and suggested I had overfilled the tank (I hadn't). After
more emails, they sent a courier to collect it, and it came back after three weeks with a replaced gasket. That's
three weeks with no espresso on a machine costing well over a thousand pounds. The repair itself was good and it
hasn't leaked since, but the process was slow and a little condescending.

5. Descaling. The descaling programme takes 45 minutes and needs you to be present for most of it, swapping
containers. Not a dealbreaker, but not the "set and forget" the marketing suggests.

Would I buy it again? Honestly, probably yes, because the coffee is that good and I now can't imagine going back.
But I'd go in with lower expectations of the software and service, and I'd buy it from a shop with a good returns
policy rather than direct. If you're new to espresso, I'd suggest something simpler and cheaper first.

6. Accessories. The included tamper is a flimsy plastic thing that doesn't fit the basket properly — a strange
choice on a machine at this price. I bought a proper 58 mm tamper and a distribution tool, which added another £60.
The included milk jug is fine. The blind basket for backflushing is included, which is good.

7. Grinder pairing. A quick tip: the machine exposes every flaw in your grinder. My old grinder was fine on my
previous machine but here the shots were uneven until I upgraded. Budget for this if you're coming from entry level.

8. Noise. The rotary pump is quiet, much quieter than my old vibration pump, so early-morning shots don't wake the
house. The only loud part is the steam wand, which is normal.

A note on the price: at the time of writing it has dropped by about £150 since I bought it. That stings a bit, but
it's still not a cheap machine.

Summary: Five stars for the coffee, two for the experience of owning it. I've settled somewhere in the middle.
"""

LONG_URGENCY_THREAD = """\
Subject: Re: Re: Harbourside building — access control upgrade schedule

--- Message 4 of 4 ---
From: Callum Reid (Facilities) — sent 16:52
To: Security Operations
Quick update from me, copying the thread below for context. Contractor has finished for the day.

One thing I should flag: while they were rewiring the controller on level 2 this afternoon, the fire door on the
north stairwell (door N2-04) stopped latching. It's now swinging open and the maglock shows "fault" on the panel. The
contractor says it needs a replacement part that they'll bring on Thursday morning. It leads from the car park
stairwell straight into the server room corridor. The corridor CCTV camera on that side is also one of the ones
that's been offline since the upgrade started. The building is unstaffed overnight from 19:00 and the car park
stays open to the public until midnight.

I've put a "do not use" sign on it. Not sure if we need to do anything else?

--- Reply from Security Operations (auto-acknowledgement) — sent 16:53
Thank you for your email. The Security Operations mailbox is monitored Monday to Friday, 08:00–18:00. For urgent
out-of-hours security matters, call the control room on extension 4400. Messages received after 17:00 will be
read the next working day.

--- Automatic alert from the access control system — sent 16:31
ALARM: Door N2-04 (North stairwell L2 / Server corridor) — DOOR FORCED / HELD OPEN — state: FAULT — acknowledged: no

--- Message 3 of 4 ---
From: Security Operations — sent 11:20
Thanks Callum. As agreed, please keep the temporary door schedule in place and let us know when each floor is done.
The guard rota for this week is unchanged: day guard 07:00–19:00, mobile patrol visits at roughly 22:00 and 03:00.

--- Message 2 of 4 ---
From: Callum Reid (Facilities) — sent 09:05
Morning all. The access control upgrade at Harbourside starts today, as planned. Schedule:
- Monday: ground floor readers and reception turnstiles (done)
- Tuesday (today): level 2 controller and doors
- Wednesday: level 3 and 4 doors
- Thursday: car park barriers and the remaining stairwell doors, plus commissioning
- Friday: snagging and sign-off
During the work, some badge readers will be offline for short periods. Doors will fail secure (locked) except fire
exits, which fail safe (open) as required by fire regulations. Staff have been told to badge in at reception.
Several CCTV cameras will go offline while the network switch is swapped; we expect them back by Wednesday.

--- Message 1 of 4 ---
From: Priya Anand (Security Operations) — sent last Friday 15:30
Hi Callum, thanks for the upgrade plan. A few requests for the week:
1. Please let us know each day which doors are affected so we can adjust patrols.
2. Any door that can't be secured overnight must be reported to us before the day guard leaves at 19:00, so we can
   arrange a static guard or a temporary lock.
3. The server room corridor is a restricted area. If its protection is reduced in any way, we need to know
   straight away.
4. Keep a log of contractor access — names and times — and hand it to reception at the end of each day.
Thanks, and good luck with it!
Priya

--- Attachment summary: "Harbourside access control upgrade — method statement v2" ---
Scope: replacement of 46 badge readers, 4 door controllers and the central access server; migration of 1,210 staff
badges to the new system; integration with the fire alarm panel so that fire exit doors release on alarm.
Working hours: 08:00–17:00, Monday to Friday. No work outside these hours without a permit.
Risk controls: doors that are being rewired are to be kept locked where possible; fire doors must remain operable
from the inside at all times; any door that cannot be secured at the end of the day must be reported to the building
manager and Security Operations. Temporary padlocks and chains must never be used on fire exits.
Contractor: Brightline Security Systems Ltd, team of three engineers (names on the daily log). Contractor supervisor:
Dev Malhotra, mobile 07700 900 733.
CCTV: cameras 14–22 (level 2 and server room corridor) will be offline while switch SW-2 is replaced; the
contractor will reconnect them in order of priority.
Communications: daily summary email from Facilities to Security Operations at the end of each working day.
"""

LONG_FEEDBACK = """\
Survey: "How was your stay?" — Lakeside Lodge, Windermere · free-text answers from one guest (booking LL-77120)

Q1. What did you enjoy most about your stay?
The view. Honestly, waking up to the mist on the lake was worth the trip on its own. Our room (Fell View, room 12)
had a huge window and we spent ages just watching the boats. The bed was comfortable and the room was spotless. The
walking routes you recommended at check-in were perfect — we did the Orrest Head walk on the first afternoon and the
longer one to Troutbeck on the second day.

Q2. How was the food?
Breakfast was a real highlight: the Cumberland sausage, the local eggs, the homemade granola. We also had dinner in
the restaurant on the Saturday. The food was lovely, especially the lamb, but service was very slow — almost an hour
between starters and mains, and nobody came to explain why. When we asked, the waiter apologised and said the
kitchen was short-staffed. We appreciated the honesty but it did take the shine off the evening.

Q3. How were the staff?
Mostly wonderful. Jess at reception was brilliant: she booked us a table at the pub in Ambleside when we decided not
to eat in on Sunday, and she found my husband's lost glasses in the lounge. The breakfast team were friendly and
quick. The only exception was the restaurant on Saturday, as above.

Q4. Was there anything that didn't meet your expectations?
The spa. It was advertised on the booking page as "lakeside spa with sauna and hot tub", but the hot tub was closed
for repairs the whole weekend and we weren't told beforehand. The sauna was small and only fitted three people, so
we had to wait. If we'd known, we might have chosen a different weekend. I think guests should be told about
closures when they book or at least before arrival.

Parking was also a bit tight — we had to leave our car on the lane the first night, which made us a little nervous.

Q5. How likely are you to recommend us to a friend (0–10)? Please explain.
7. The location, room and breakfast are fantastic and we'd love to come back in the autumn. But for the price we
paid, the spa closure without warning and the slow dinner were disappointing. If those get sorted, it would easily
be a 9 or 10.

Q6. How was the room itself?
Clean, warm and well thought out. Good-quality toiletries, fluffy towels, a proper coffee machine with fresh milk in
the little fridge, and plenty of plugs by the bed. The bathroom had a rainfall shower with great pressure. Our only
small complaint is that the curtains let in a lot of light at dawn — fine for us because we wanted to see the lake,
but a light sleeper might struggle. The Wi-Fi was patchy in the room but worked well in the lounge.

Q6b. How was the location?
Perfect for walking, ten minutes on foot to the lake steamers and twenty to Bowness. The road noise was minimal
after about 10pm. The only drawback is that the last bus from Windermere station is quite early, so if you arrive
late by train you'll need a taxi, which cost us £14.

Q7. How was check-in and check-out?
Check-in was smooth, and we appreciated being offered an early room when we arrived at 1pm. Check-out was quick.
One thing: the final bill included a £6 "resort fee" that we hadn't noticed when booking. It was on the booking
page in small print, so that's our fault, but it would be nicer to include it in the room price.

Q7b. Did you have any problems during your stay?
Just one small one: on the Saturday night the radiator in our room wouldn't turn down and the room got very warm.
We rang reception, and someone came up within ten minutes and sorted it out, apologising. It wasn't a big deal, and
they handled it well. The neighbours' dog barked a little in the morning, but that's life in a dog-friendly hotel,
and we liked seeing all the dogs in the lounge.

Q8. Did you use any other facilities?
We borrowed the hotel's kayaks on the Sunday morning, which was a highlight — the staff gave us life jackets and a
map of the quiet bays. We also used the drying room for our walking boots after the Troutbeck walk, which was very
useful. The lounge with the fire in the evening was cosy and we spent a happy hour there with a board game from the
shelf.

Q8b. Would you book with us directly again?
Probably yes. We booked through a comparison site this time, but your own website offered a free late check-out for
direct bookings, which we only noticed afterwards. It would be good to make that clearer in the confirmation email.

Q9. Anything else you'd like to tell us?
Please pass our thanks to Jess! And the little jar of Kendal mint cake on the pillow was a lovely touch.
"""

LONG_TENT_REVIEW = """\
Ridgeline Trekker 2 backpacking tent — review after a season of use (verified purchase)

Short version: a very good lightweight two-person tent with a couple of small annoyances. Long version below, because
when I was shopping I wished someone had written one.

How I used it: about 24 nights between April and October. Mostly solo, six nights with my partner. Trips included
three nights on the Cairngorm plateau, a week on the West Highland Way, wild camping on Dartmoor, and a wet bank
holiday at a campsite in Snowdonia. Conditions ranged from still and dry to a night of gusts around 45 mph and one
evening of sideways rain that lasted eight hours.

Weight and packing: 1.38 kg on my kitchen scales with the pegs and stuff sack, which is close to the claimed 1.35 kg.
It packs down to about the size of a two-litre bottle. The poles split into short sections so they fit across the
bottom of my 45-litre pack. For a freestanding two-person tent this is excellent.

Pitching: the inner and fly can pitch together, which is great in the rain — the whole thing goes up in about five
minutes once you've done it a couple of times. The poles are colour-coded to the corners. The first time took me
fifteen minutes in a garden because the instructions are just a few pictures, but it's intuitive after that.

Weather performance: this is where it impressed me. On the plateau night the gusts were strong enough that I barely
slept, but the tent held its shape and nothing moved once it was properly guyed out. In the eight-hour downpour in
Snowdonia, we stayed completely dry inside. The bathtub floor is high enough that a small stream of runoff went under
the tent without any water coming in. Condensation is there on still, humid nights, as with any single-skin or
lightweight double-skin tent, but the two vents keep it manageable if you open them.

Space: for one person it's palatial; my pack fits inside with me. For two people it's fine if you're both under about
1.85 m and don't mind being cosy. The two doors and two porches are the best feature — no climbing over each other
to get out at night, and each person has a porch for boots and a pack. Headroom is good enough to sit up and change.

Durability: after 24 nights, no rips, the zips still run smoothly and the seam tape is intact. One pole section has a
small scratch. The floor is thin, so I use a groundsheet, which adds 150 g. I'd recommend one.

The annoyances:
- The pegs are the cheap thin aluminium kind. Two bent on Dartmoor's rocky ground. I replaced them with better ones.
- The stuff sack is a tight fit. After the first wet pack-up I gave up and use a slightly larger bag.
- The guylines are thin and a bit slippery in the tensioners when wet.
- It's not cheap. There are heavier tents for half the price.

Small things I liked: the inner has two mesh pockets at head height and a loop for hanging a head torch, which
turns it into a lantern. The fly has reflective tabs, which saved me from tripping over a guyline at 3am more than
once. The doors have toggles to hold them open, and the vents can be opened from inside. The colour (a muted green)
blends in nicely for wild camping. Customer service answered a question about replacement poles within a day, and
spare sections are available to buy, which matters for a tent you want to keep for years.

Living with it day to day: on a long trail the routine matters more than the specs. Mine became: pitch, throw
the mat and quilt in, boots in the left porch, stove in the right porch if it's raining, and the pack inside along
the wall. Pack-down in the morning takes about ten minutes including shaking off the worst of the dew. On the West
Highland Way I was usually first away from the campsites, which I put down to the tent rather than any discipline on
my part. The midges, on the other hand, were not impressed by the mesh door gap at the bottom corner — a couple of
them always found a way in on still evenings. A minor thing, but worth knowing if you're heading to Scotland in
summer.

Things I'd like in a future version: a slightly longer inner for tall people, a stuff sack with a compression strap,
and a proper repair kit rather than the single spare pole sleeve that comes in the box.

Compared with what I had before (a heavier three-kilo tunnel tent), this has transformed my trips. I'm already
planning a longer route next year around it.

Would I recommend it? Yes, to anyone who wants a light, storm-worthy tent for one, or for two people who get on
well. I'm knocking off a star for the pegs, the tiny stuff sack and the price, but it's a great tent.
"""

ITEMS = [
    # ---- negative? -------------------------------------------------------------------------------
    it(NEGATIVE, "Absolutely love this jacket. Warm, light, and the pockets are huge. Already ordered a second one "
                 "for my brother.", False),
    it(NEGATIVE, "Three weeks and the heel has already come off. Complete waste of money.", True),
    it(NEGATIVE, "The package arrived on Tuesday. It contained the charger and the cable, as described.", False),
    it(NEGATIVE, "I wanted to like this place, I really did, but the food was cold and the waiter ignored us for "
                 "twenty minutes.", True),
    it(NEGATIVE, "Not bad at all for the price — does what it says.", False),
    it(NEGATIVE, "The update removed the one feature I used every day. Why would you do that?", True),
    it(NEGATIVE, "Not the best pizza I've ever had, but far from the worst, and the staff were lovely.", False,
       amb=True),
    it(NEGATIVE, "Checked in at 3, room wasn't ready until 6, and nobody apologised. Bed was fine I suppose.", True),
    it(NEGATIVE, LONG_FEEDBACK, False, amb=True),
    # ---- angry? ---------------------------------------------------------------------------------------
    it(ANGRY, "THIS IS THE THIRD TIME you've cancelled my delivery without telling me. I took a day off work for "
              "this. Unacceptable.", True),
    it(ANGRY, "Bit disappointed the blue one sold out, but the green is nice too.", False),
    it(ANGRY, "Thank you so much for sorting out my refund so quickly, really appreciate it!", False),
    it(ANGRY, "I've been charged twice and your so-called support team keeps closing my ticket. Fix it or I'm going "
              "to my bank and leaving a review everywhere I can.", True),
    it(ANGRY, "I'm sad to be leaving the team, but excited for what comes next. Thanks for everything.", False),
    it(ANGRY, "Fine. Whatever. I'll just do it myself like always.", True, amb=True),
    it(ANGRY, "The train was 40 minutes late again. I'll have to leave earlier tomorrow.", False),
    # ---- sarcasm? ---------------------------------------------------------------------------------------
    it(SARCASM, "Oh fantastic, another 'quick' two-hour meeting that could have been an email. My favourite.", True),
    it(SARCASM, "The new update is fantastic — battery life is noticeably better and it feels snappier.", False),
    it(SARCASM, "Love how the printer only jams when I'm in a hurry. Truly a marvel of engineering.", True),
    it(SARCASM, "Great, thanks for letting me know, I'll pick it up tomorrow.", False),
    it(SARCASM, "Wow, a delivery window of 7am to 9pm. So helpful. I'll just cancel my life then.", True),
    it(SARCASM, "Well, that went well.", True, amb=True),
    # ---- recommend? -------------------------------------------------------------------------------------
    it(RECOMMEND, "If you're in Porto, don't miss this little bakery. The custard tarts are better than in Lisbon.",
       True),
    it(RECOMMEND, "Looks nice in photos but the fabric pills after one wash. I'd spend a bit more on something "
                  "better.", False),
    it(RECOMMEND, "Solid kettle. Boils fast, quiet, easy to clean. Nothing fancy but it does the job.", True,
       amb=True),
    it(RECOMMEND, "The course started well but the last four modules were just reading out slides. Save your money.",
       False),
    it(RECOMMEND, "Third time staying here and it never disappoints. Already booked for next summer.", True),
    it(RECOMMEND, "It works, but the app is clunky and setup took me an evening. There are easier options now.",
       False),
    # ---- polarity -----------------------------------------------------------------------------------------
    it(POLARITY, "Best concert I've been to in years. The encore gave me goosebumps.", "positive"),
    it(POLARITY, "The flight was cancelled and we got no help rebooking. Never again.", "negative"),
    it(POLARITY, "The museum opens at 10am and entry is free on the first Sunday of the month.", "neutral"),
    it(POLARITY, "Gorgeous screen and great speakers, but the battery barely lasts half a day.", "mixed"),
    it(POLARITY, "Delivery was quick. The chair is fine.", "neutral", amb=True),
    it(POLARITY, "The staff couldn't have been kinder when my daughter got ill during our stay.", "positive"),
    it(POLARITY, "Tastes great, but the portion was tiny for £16 and we left hungry.", "mixed"),
    it(POLARITY, "Honestly the worst customer service I've dealt with this year.", "negative"),
    it(POLARITY, "Our meeting is moved to room 4B. Please bring the printed agenda.", "neutral"),
    it(POLARITY, "I didn't expect much from a £20 blender but it crushes ice like a champ.", "positive"),
    it(POLARITY, "Lovely hotel in a terrible location — 40 minutes from anything.", "mixed"),
    it(POLARITY, LONG_REVIEW, "mixed"),
    # ---- emotion -----------------------------------------------------------------------------------------
    it(EMOTION, "We just found out we're having twins!!! Still can't stop smiling.", "joy"),
    it(EMOTION, "I want to thank the nurses on ward 7 for looking after my dad so well in his last weeks.",
       "gratitude"),
    it(EMOTION, "How DARE they raise the rent by 30% with two weeks' notice.", "anger"),
    it(EMOTION, "The house feels so empty since Biscuit died. I keep expecting to hear him at the door.", "sadness"),
    it(EMOTION, "My biopsy results come back on Friday and I can't sleep thinking about it.", "fear"),
    it(EMOTION, "Wait, so do I submit the form before or after the interview? The email says both.", "confusion"),
    it(EMOTION, "Thank you for the surprise party, I had no idea! Best birthday ever.", "gratitude", amb=True),
    it(EMOTION, "I got the job!!! Starting in March. Dream come true.", "joy"),
    it(EMOTION, "I've read the instructions three times and I still don't know which cable goes where.", "confusion"),
    it(EMOTION, "There's someone trying the handle of our back door at 2am and I'm home alone.", "fear"),
    it(EMOTION, "Can't believe they let him go after 20 years with no warning. Disgraceful.", "anger", amb=True),
    # ---- stars ---------------------------------------------------------------------------------------------
    it(STARS, "Broke on day two. Seller won't answer. Avoid.", 0),
    it(STARS, "Looks cheap in person and one leg wobbles. Usable but I'm disappointed.", 1),
    it(STARS, "It's okay. Does the job, nothing special. Instructions were poor.", 2),
    it(STARS, "Really good headphones for the price. Comfortable. Noise cancelling could be stronger.", 3),
    it(STARS, "Perfect in every way. Fast shipping, beautiful quality, would buy again in a heartbeat!", 4),
    it(STARS, "Nice design but the zip broke after a month. Customer service replaced it quickly though.", 2,
       amb=True),
    it(STARS, "Good, not great. The app is confusing but the device itself works well.", 3, amb=True),
    it(STARS, "Smells weird and made my skin itch. Threw it away.", 0),
    it(STARS, LONG_TENT_REVIEW, 3),
    # ---- politeness ----
    it(POLITENESS, "Send me the file. Now. I've asked three times.", 0),
    it(POLITENESS, "The file is attached. The second tab has the monthly totals.", 1),
    it(POLITENESS, "Sorry to bother you again — would you mind sending the file when you have a moment? Thanks so "
                   "much!", 2),
    it(POLITENESS, "Thanks for the quick turnaround, really appreciated. Could you also add the March figures?", 2),
    # ---- agreement (survey) ----
    it(LIKERT, "Setup took two minutes, literally plug in and go. Couldn't have been easier!", 6),
    it(LIKERT, "An absolute nightmare. Worst setup I've ever been through: three hours, two support calls and a "
               "factory reset.", 0),
    it(LIKERT, "Mostly fine. The Wi-Fi pairing step was a bit confusing but I worked it out in the end.", 4),
    it(LIKERT, "I honestly don't know, my partner set it up while I was at work.", 3),
    # ---- urgency --------------------------------------------------------------------------------------------
    it(URGENCY, "Whenever you have a moment, could you send me the slides from last month's offsite? No rush.", 0),
    it(URGENCY, "Can you review my PR before Thursday's release freeze? It's small.", 1),
    it(URGENCY, "The client wants the signed contract back by end of day today or they'll go with the other "
                "bidder.", 2),
    it(URGENCY, "The board call starts in 40 minutes and the deck still has last quarter's numbers on slide 6.", 3),
    it(URGENCY, "Someone just called pretending to be the CEO and our AP clerk is about to wire £90k to them — "
                "she's on the bank's site right now.", 4),
    it(URGENCY, "Heads up: the office will be closed on the bank holiday next Monday.", 0),
    it(URGENCY, "Gas smell in the kitchen on the 3rd floor, it's getting stronger.", 4),
    it(URGENCY, "The printer on floor 2 is out of toner again.", 1, amb=True),
    it(URGENCY, "Payroll closes at 5pm today and Olu's overtime hasn't been approved yet.", 2),
    it(URGENCY, "Our main website just went down and the ad campaign went live ten minutes ago.", 3, amb=True),
    it(URGENCY, LONG_URGENCY_THREAD, 3, amb=True),
    # ---- medium-length texts --------------------------------------------------------------------------------
    it(POLARITY, """
        We booked the "riverside suite" for our anniversary after seeing the photos. The room we got overlooked
        the car park and the bins, and when we asked, reception said the river view "depends on the season". The
        bathroom extractor fan didn't work so the mirror fogged up for an hour after every shower, and there was
        a constant hum from the lift shaft next door. Breakfast was advertised as "locally sourced" but was
        mostly packet croissants and a tray of lukewarm scrambled eggs. We complained politely on the first
        evening and were offered a £10 bar voucher. We won't be back, and I'd think twice about the photos on
        their website.
        """, "negative"),
    it(URGENCY, """
        Hi Sam,

        Hope the conference went well! When you're back and settled, could we find half an hour to go through the
        draft budget for next year? There's no deadline yet — finance want first drafts by the end of next month —
        but I'd like to get your view on the training line before I firm anything up. I've put the spreadsheet in
        the shared folder (Budget 2025 > draft v1). Any day next week works for me except Wednesday.

        Thanks,
        Alison
        """, 1),
]
