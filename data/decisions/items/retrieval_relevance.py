"""Retrieval relevance: does a passage answer a query, which passage is best, how relevant is it."""

from ._kit import choice, it, noul, score

DOMAIN = "retrieval_relevance"
PREFIX = "retrieval"

ANSWERS = noul(
    "Does the passage contain the answer to the query?",
    true="A reader could answer the query from this passage alone.",
    false="The passage is off-topic, or on-topic but does not give the specific answer asked for.",
)
RELEVANCE = score(
    "How relevant is the passage to the query?",
    [
        "irrelevant: a different topic",
        "related: same topic but does not help answer the query",
        "partial: helps, but leaves part of the query unanswered",
        "fully relevant: answers the query",
    ],
)
INTENT = choice(
    "What is the user's intent with this search query?",
    {
        "informational": "wants to learn or understand something",
        "navigational": "wants to reach a specific website or page",
        "transactional": "wants to buy, download, book or sign up for something",
        "local": "wants a place or service near them",
    },
)


def best(options=("A", "B", "C", "D"), none=False):
    crit = {o: None for o in options}
    if none:
        crit["none"] = "none of the passages answers the query"
    return choice("Which passage best answers the query?", crit)


PAIR = choice(
    "Which of the two passages is more useful for answering the query?",
    {"A": "the first passage", "B": "the second passage"},
)
AUDIENCE = score(
    "What level of background knowledge does this passage assume?",
    [
        "general audience: no specialist knowledge needed",
        "specialist: assumes technical or professional knowledge",
    ],
)

BEST4 = best()
BEST3 = best(("A", "B", "C"))
BEST3N = best(("A", "B", "C"), none=True)
BEST5 = best(("A", "B", "C", "D", "E"))


def qp(query, passage):
    return {"query": query, "passage": passage}


def qps(query, *passages):
    return {"query": query, "passages": {chr(65 + i): p for i, p in enumerate(passages)}}


LONG_HANDBOOK = """\
Query: How many days of paid leave can I take when my partner has a baby?

Document: Harrowgate Systems — Employee Handbook (UK), Section 7: Time Off and Leave (version 4.2, January 2024)

7.1 Annual leave
Full-time employees receive 25 days of paid annual leave per holiday year (1 January to 31 December), plus UK bank
holidays. Part-time employees receive a pro-rata entitlement based on their contracted hours. Leave is booked
through the HR portal and must be approved by your line manager. We ask that you give at least twice as much notice
as the length of the leave you are requesting (for example, two weeks' notice for a week off). Up to five unused
days may be carried over into the first quarter of the next year; any carried-over days not taken by 31 March are
lost. During your notice period, your manager may ask you to take outstanding leave.

7.2 Bank holidays
If you are required to work on a bank holiday, you will receive a day off in lieu, to be taken within three months.
Employees in Scotland and Northern Ireland follow their local bank holiday calendars.

7.3 Sickness absence
If you are unwell and unable to work, please tell your manager as early as possible on the first day, and no later
than 10:00. For absences of up to seven calendar days you may self-certify through the HR portal. For longer
absences, a fit note from a GP or hospital is required. Employees with more than six months' service receive full
pay for up to 20 working days of sickness in any rolling 12-month period, then Statutory Sick Pay. Return-to-work
conversations take place after every absence, and are intended to be supportive rather than disciplinary.

7.4 Maternity leave
Employees who are pregnant are entitled to up to 52 weeks of maternity leave, regardless of length of service.
Employees with at least 26 weeks' continuous service by the 15th week before the expected week of childbirth
receive enhanced maternity pay: 16 weeks at full pay, followed by 23 weeks at Statutory Maternity Pay. You must tell
HR that you are pregnant, your expected week of childbirth and your intended start date no later than the 15th week
before the baby is due. Keeping-in-touch (KIT) days are available and paid at your normal daily rate.

7.5 Paternity and partner leave
Employees whose partner is having a baby, or who are adopting, are entitled to partner leave. Employees with at
least 26 weeks' continuous service receive four weeks (20 working days) of partner leave at full pay, which is more
generous than the statutory two weeks. The leave can be taken as one block or as two separate blocks of two weeks,
at any time within 52 weeks of the birth or placement. Employees with less than 26 weeks' service receive five
working days at full pay. Please notify HR of your intended dates at least 15 weeks before the expected week of
childbirth, or within seven days of being matched for adoption. You are also entitled to unpaid time off to attend
up to two antenatal appointments.

7.6 Shared parental leave
Eligible parents may choose to share up to 50 weeks of leave and 37 weeks of pay after the birth. Shared parental
pay is paid at the statutory rate. Please speak to HR at least eight weeks before you want your shared parental leave
to begin, as a formal notice and booking process applies.

7.7 Compassionate leave
In the event of the death of a close family member, you may take up to five days of paid compassionate leave. In
the event of the loss of a child under 18, or a stillbirth after 24 weeks of pregnancy, parents are entitled to two
weeks of paid bereavement leave. Your manager may agree additional paid or unpaid time off depending on the
circumstances.

7.8 Jury service and public duties
If you are called for jury service, please give your manager a copy of the summons as soon as possible. We continue
to pay your salary during jury service for up to ten working days; you should claim loss of earnings from the court
for any longer period. Reasonable unpaid time off is given for public duties such as serving as a magistrate or
school governor.

7.9 Volunteering
Each employee may take two paid volunteering days per year for a registered charity or community organisation.
Requests are made through the HR portal, like annual leave.

7.10 Dependants and emergencies
You have the right to take a reasonable amount of unpaid time off to deal with an emergency involving a dependant,
such as a child's childminder falling through or a parent being taken to hospital. In most cases one or two days is
enough to make alternative arrangements. Please let your manager know as soon as you can. Separately, employees who
care for a dependant with a long-term care need may take up to one week of unpaid carer's leave per year, in half or
whole days.

7.11 Sabbaticals
After five years' continuous service, you may request an unpaid sabbatical of between one and three months. Requests
are considered by your director and HR, taking into account the needs of the business, and should be made at least
three months before the proposed start date.
"""

LONG_FAQ_NO_ANSWER = """\
Query: Can I bring my e-bike battery on a Eurostar train?

Passage: Travelling with Eurostar — Luggage & Bikes FAQ (selected questions)

How much luggage can I bring?
Standard and Plus passengers can bring two large items of luggage (up to 85 cm long each) plus one small bag. Premier
passengers can bring three large items. There's no weight limit, but you need to be able to lift your own bags onto
the racks. Each item must be labelled with your name and phone number.

Can I bring a pushchair or car seat?
Yes. Pushchairs and car seats for children don't count towards your luggage allowance, and you can take them on
board with you. Please fold pushchairs before boarding.

Can I take my bike?
Yes. On most routes you can bring a bike in one of two ways. Assembled bikes can travel in a dedicated bike space on
board, which must be booked in advance for a fee; spaces are limited, so we recommend booking early. Folding bikes
and dismantled bikes packed in a bike bag (maximum 85 cm) can travel as normal luggage free of charge. Tandems,
recumbents and bikes with trailers cannot be carried.

How do I book a bike space?
Add a bike space when you book your ticket online, or contact our customer care team. You'll need to arrive at the
station at least 60 minutes before departure to check in your bike at the registered baggage office, or at the time
given in your booking confirmation. Bikes are collected from the same office at your destination.

Are there items I can't bring?
You cannot bring weapons, including replicas; flammable items such as fireworks, gas canisters and lighter fluid;
corrosive or toxic substances; or more than three litres of alcohol above 22% ABV per person when travelling to the
UK. Knives with a blade longer than 6 cm are not allowed, except for cutlery in a picnic set. Security checks take
place at all stations before boarding, similar to an airport.

Can I bring my pet?
Only assistance dogs can travel on Eurostar. Pets, including cats and dogs, are not allowed on board.

Can I bring food and drink?
Yes, you can bring your own food and soft drinks. Alcohol is allowed for consumption on board in moderation. Our
Café Métropole in coach 4 or 13 sells snacks, hot meals and drinks.

What about electric scooters and hoverboards?
For safety reasons, e-scooters, hoverboards, electric unicycles and similar personal transport devices are not
allowed on board, whether folded or not.

What happens if I leave something on the train?
Contact our Lost Property team within 60 days, giving as much detail as possible. Found items are held at the
arrival station.

Can I change or cancel my ticket?
Depending on your ticket type, you can exchange your ticket up to seven days after the original departure date, paying
any difference in fare. Standard Premier and Business Premier tickets are more flexible. Some promotional fares are
non-exchangeable. Please check the conditions of your ticket before booking.

Do you have accessible spaces?
Yes. Wheelchair spaces are available in coaches 1 and 18 and can be booked free of charge for a companion, at a
special fare. Please arrive at the station at least 60 minutes before departure and let the assistance team know
you've arrived.

Can I bring musical instruments?
Yes. Small instruments such as violins and guitars can be carried as part of your luggage allowance and stored in
the overhead racks or luggage areas. Larger instruments such as cellos need their own seat; please book an extra
ticket and contact us so we can note it on your booking.

Can I bring skis or snowboards?
Yes, skis and snowboards count as one large item of luggage if they're packed in a bag. On our seasonal ski trains
to the Alps there is extra luggage space and a larger allowance.

What time should I arrive at the station?
Check-in closes 30 minutes before departure for Standard and Plus, and 20 minutes before for Premier passengers at
London St Pancras. Allow more time during busy periods such as school holidays and bank holiday weekends, as
queues for security and passport control can be long. If you miss check-in you may not be able to travel.

Do I need a passport?
Yes. All passengers, including children, need a valid passport or national identity card (for eligible
nationalities) for every Eurostar journey, as you cross an international border. Border checks for both countries
take place at the departure station before you board.

Can I travel with medication or medical equipment?
Yes. You can bring medicines, syringes and medical equipment such as oxygen concentrators, CPAP machines and
mobility aids. Portable oxygen must be in a cylinder of no more than 2 litres; tell us when you book.

Is there Wi-Fi on board?
Free Wi-Fi is available on most trains, although coverage may drop in the Channel Tunnel. Power sockets (UK and
European) are available at most seats.
"""

LONG_RFC_PARTIAL = """\
Query: What HTTP status code should an API return when a client sends too many requests, and how does the client know when to retry?

Passage: Internal engineering wiki — "API design guidelines", section 5: Errors and status codes (last edited by
m.okafor, 2024-02-11)

5.1 General principles
Every error response uses the JSON error envelope described in section 4: a top-level "error" object with "code"
(a stable, machine-readable string such as "order_not_found"), "message" (a human-readable sentence that may change
between releases), and optionally "details" (an array of field-level problems). Never return an HTML error page from
an API endpoint, even from the load balancer; configure the ingress to pass through JSON bodies.

5.2 Client errors
400 Bad Request: the request body or query parameters failed validation. Include a "details" entry for each field.
401 Unauthorized: no credentials, or credentials that could not be verified. Do not reveal whether the account exists.
403 Forbidden: the caller is authenticated but not allowed to perform this action on this resource.
404 Not Found: the resource does not exist, or the caller is not allowed to know that it exists.
409 Conflict: the request conflicts with the current state, for example an optimistic-locking version mismatch or a
duplicate idempotency key with a different body.
422 Unprocessable Content: we do not use 422; use 400 with details instead, for consistency with older services.
429 Too Many Requests: the caller has exceeded a rate limit. See section 6 for how limits are configured per client
and per endpoint. The response body uses the standard envelope with code "rate_limited".

5.3 Server errors
500 Internal Server Error: an unexpected exception. The message must not include stack traces or internal hostnames.
Log the full error with the request id.
502 Bad Gateway and 504 Gateway Timeout: produced by the gateway when an upstream fails or is too slow. Services should
not return these themselves.
503 Service Unavailable: the service is deliberately refusing work, for example during maintenance or when a circuit
breaker is open.

5.4 Request ids
Every response, successful or not, carries an X-Request-Id header. If the client supplied one, echo it; otherwise
generate a UUIDv7. Include the request id in every log line produced while handling the request.

5.5 Idempotency
POST endpoints that create resources accept an Idempotency-Key header. Keys are stored for 24 hours. A repeated key
with the same body returns the original response; a repeated key with a different body returns 409.

5.6 Deprecation
Endpoints scheduled for removal return a Deprecation header and a Sunset header with the removal date, and are
announced in the API changelog at least 90 days in advance.

5.7 Pagination errors
An invalid or expired page cursor returns 400 with code "invalid_cursor". Clients should restart from the first page.

5.8 Timeouts
Requests that exceed the endpoint's processing budget are cancelled and return 503 with code "timeout". Long-running
operations should instead return 202 Accepted and a status URL.

5.9 Error documentation
Every error code used by a service must be listed in that service's OpenAPI document with an example response.

5.10 Validation messages
Field-level messages in "details" should name the field using its JSON path (for example "items[2].quantity") and
say what was expected, not only what was wrong: prefer "must be between 1 and 99" to "invalid quantity". Messages are
in English; clients that need localisation should map the stable "code" values instead of parsing messages.

5.11 Partial failures in batch endpoints
Batch endpoints (those that accept an array of operations) return 200 with a per-item result array when at least one
item was processed, even if others failed. Each item result carries its own status and, where it failed, an error
object in the standard envelope. A batch in which every item fails validation returns 400.

5.12 Logging and alerting
Client errors (4xx) are logged at INFO level and do not page anyone. A sustained rise in 401 or 403 responses for
one client may indicate a misconfigured integration or credential stuffing, and is reported to the security channel
by the gateway. Server errors (5xx) are logged at ERROR level; a 5xx rate above 1% for five minutes pages the owning
team. Do not log request bodies for endpoints that accept personal data or payment details.

5.13 Examples
A missing required field returns:
  400 {"error": {"code": "validation_failed", "message": "Request body is invalid.",
       "details": [{"field": "email", "message": "is required"}]}}
An unknown order returns:
  404 {"error": {"code": "order_not_found", "message": "No order with id ord_123."}}
"""

ITEMS = [
    # ---- answers? --------------------------------------------------------------------------------------
    it(ANSWERS, qp(
        "what temperature should chicken be cooked to",
        "Poultry, including whole chickens, breasts, thighs and ground chicken, should be cooked to an internal "
        "temperature of 165°F (74°C), measured with a food thermometer in the thickest part without touching bone.",
    ), True),
    it(ANSWERS, qp(
        "what temperature should chicken be cooked to",
        "Brining chicken for a few hours before roasting keeps the meat juicy. Use about 60 g of salt per litre of "
        "water and add aromatics such as bay leaves, peppercorns and lemon peel.",
    ), False),
    it(ANSWERS, qp(
        "python remove duplicates from list keep order",
        "Since Python 3.7 dictionaries preserve insertion order, so `list(dict.fromkeys(items))` removes duplicates "
        "while keeping the first occurrence of each element in its original position.",
    ), True),
    it(ANSWERS, qp(
        "python remove duplicates from list keep order",
        "A set is an unordered collection with no duplicate elements. Basic uses include membership testing and "
        "eliminating duplicate entries. Set objects also support mathematical operations like union, intersection, "
        "difference, and symmetric difference.",
    ), False, amb=True),
    it(ANSWERS, qp(
        "when did the berlin wall fall",
        "On the night of 9 November 1989, after a confused announcement by East German official Günter Schabowski, "
        "crowds gathered at the checkpoints and guards opened the gates; the Berlin Wall had fallen.",
    ), True),
    it(ANSWERS, qp(
        "when did the berlin wall fall",
        "Construction of the Berlin Wall began on 13 August 1961. It eventually stretched for about 155 km around "
        "West Berlin and included watchtowers, a 'death strip' and anti-vehicle trenches.",
    ), False),
    it(ANSWERS, qp(
        "how long is a UK passport valid for adults",
        "An adult passport (for those aged 16 or over) is usually valid for 10 years. A child passport is valid for "
        "5 years.",
    ), True),
    it(ANSWERS, qp(
        "does ibuprofen interact with lisinopril",
        "Lisinopril is an ACE inhibitor used to treat high blood pressure and heart failure. Common side effects "
        "include a dry cough, dizziness and headaches. Take it at the same time each day.",
    ), False),
    it(ANSWERS, qp(
        "git undo last commit but keep changes",
        "Run `git reset --soft HEAD~1`. This moves the branch back by one commit but leaves your changes staged, so "
        "you can edit and recommit them.",
    ), True),
    it(ANSWERS, qp(
        "git undo last commit but keep changes",
        "`git revert <commit>` creates a new commit that undoes the changes introduced by the given commit. It is safe "
        "to use on shared branches because it does not rewrite history.",
    ), False, amb=True),
    it(ANSWERS, qp(
        "capital of australia",
        "Sydney is Australia's largest city and home to the Opera House and Harbour Bridge. It is the capital of the "
        "state of New South Wales.",
    ), False),
    it(ANSWERS, qp(
        "can I freeze cooked rice",
        "Yes — cool cooked rice quickly (within an hour), put it in an airtight container and freeze it for up to a "
        "month. Reheat until piping hot all the way through and only reheat once.",
    ), True),
    it(ANSWERS, qp(
        "what is the boiling point of water at the top of Everest",
        "Air pressure falls with altitude, so water boils at a lower temperature the higher you go. At 2,000 m it "
        "boils at around 93°C, which is why pasta takes longer to cook in the mountains.",
    ), False, amb=True),
    it(ANSWERS, qp(
        "postgres change column type",
        "Use ALTER TABLE ... ALTER COLUMN ... TYPE. For example: `ALTER TABLE orders ALTER COLUMN total TYPE "
        "numeric(12,2) USING total::numeric;` The USING clause tells Postgres how to convert existing values.",
    ), True),
    it(ANSWERS, qp(
        "who wrote the novel frankenstein",
        "Frankenstein; or, The Modern Prometheus was first published anonymously in London in 1818. The story of "
        "Victor Frankenstein and his creature has inspired countless films and adaptations.",
    ), False),
    it(ANSWERS, qp(
        "how many hours of sleep does a teenager need",
        "Sleep guidelines: school-age children (6–12 years) need 9 to 12 hours per night; teenagers (13–18 years) need "
        "8 to 10 hours; adults need 7 or more hours.",
    ), True),
    it(ANSWERS, qp(
        "iphone 15 battery capacity mAh",
        "The iPhone 15 offers up to 20 hours of video playback and charges to 50% in around 30 minutes with a 20W "
        "adapter. It uses a USB-C connector for the first time on an iPhone.",
    ), False),
    it(ANSWERS, qp(
        "is the louvre closed on tuesdays",
        "The Louvre is open every day except Tuesday, from 9 am to 6 pm, with late opening until 9:45 pm on Fridays. "
        "It is also closed on 1 January, 1 May and 25 December.",
    ), True),
    it(ANSWERS, qp(
        "difference between a virus and bacteria",
        "Antibiotics do not work against viral infections such as colds and flu. Taking antibiotics when you don't "
        "need them contributes to antibiotic resistance.",
    ), False, amb=True),
    it(ANSWERS, qp(
        "kubernetes restart a deployment",
        "To restart all pods in a deployment without changing its spec, run `kubectl rollout restart deployment/<name>`. "
        "Pods are replaced gradually according to the rollout strategy.",
    ), True),
    it(ANSWERS, qp(
        "how to get rid of fruit flies",
        "Fruit flies are attracted to ripening and fermenting produce. Their life cycle from egg to adult can be as "
        "short as a week in warm conditions, and a female can lay around 500 eggs.",
    ), False),
    it(ANSWERS, qp(
        "what does HTTP 418 mean",
        "418 I'm a teapot: any attempt to brew coffee with a teapot should result in the error code 418. It was "
        "defined in the April Fools' RFC 2324 (Hyper Text Coffee Pot Control Protocol) and is not meant to be "
        "implemented by real servers.",
    ), True),
    it(ANSWERS, qp(
        "minimum wage in germany 2024",
        "Germany introduced a statutory minimum wage in 2015 at €8.50 per hour. Since then it has been raised several "
        "times on the recommendation of the Minimum Wage Commission.",
    ), False),
    it(ANSWERS, LONG_HANDBOOK, True),
    it(ANSWERS, LONG_FAQ_NO_ANSWER, False, amb=True),
    it(ANSWERS, qp(
        "how to convert a string to int in javascript",
        "Use `Number(str)` or `parseInt(str, 10)`. `Number('42')` returns 42, and `parseInt('42px', 10)` returns 42 "
        "because it stops at the first non-digit.",
    ), True),
    it(ANSWERS, qp(
        "how to convert a string to int in javascript",
        "In JavaScript, the `+` operator concatenates when either operand is a string: `'4' + 2` is `'42'`. This is "
        "a common source of bugs when reading values from form fields.",
    ), False),
    # ---- best passage -------------------------------------------------------------------------------------
    it(BEST4, qps(
        "how do I reset my router to factory settings",
        "Your router's admin page is usually at 192.168.1.1. Log in with the password on the sticker.",
        "Press and hold the recessed Reset button on the back of the router for 10 seconds with a paperclip, until the "
        "lights flash. The router restarts with factory settings.",
        "Restarting the router (unplug for 30 seconds) often fixes slow Wi-Fi without losing your settings.",
        "Our routers come with a two-year warranty. Contact support if your router is faulty.",
    ), "B"),
    it(BEST4, qps(
        "symptoms of vitamin D deficiency",
        "Vitamin D is made by the skin when exposed to sunlight and is found in oily fish and eggs.",
        "Adults are advised to take 10 micrograms of vitamin D a day during autumn and winter.",
        "Too much vitamin D over a long period can cause calcium to build up in the body.",
        "A lack of vitamin D can cause bone pain, muscle weakness and tiredness, and in children can lead to rickets.",
    ), "D"),
    it(BEST4, qps(
        "rust borrow checker error cannot borrow as mutable more than once",
        "Rust's ownership model ensures memory safety without a garbage collector.",
        "Error E0499: a variable was borrowed as mutable more than once at a time. Restructure the code so the first "
        "mutable borrow ends before the second begins, e.g. by limiting its scope or using split_at_mut for slices.",
        "Error E0382: a value was used after it was moved. Consider cloning the value or borrowing it instead.",
        "Cargo is Rust's build system and package manager.",
    ), "B"),
    it(BEST4, qps(
        "best time to visit iceland for northern lights",
        "The northern lights are visible in Iceland from about September to mid-April, when nights are dark; the "
        "best chances are on clear nights away from city lights, often between 10 pm and 2 am.",
        "Iceland's Ring Road is 1,332 km long and takes about a week to drive comfortably.",
        "In summer Iceland has the midnight sun, with almost 24 hours of daylight in June.",
        "Reykjavík's Sky Lagoon is open year-round and is a popular place to relax.",
    ), "A"),
    it(BEST4, qps(
        "how to cancel amazon prime",
        "Amazon Prime includes free delivery, Prime Video and Prime Music.",
        "Prime members can share some benefits with one other adult in an Amazon Household.",
        "Go to Your Account > Prime Membership, select 'Manage membership', then 'End membership', and confirm. You "
        "keep benefits until the end of the billing period.",
        "If you signed up by mistake and haven't used any benefits, you may be eligible for a full refund.",
    ), "C"),
    it(BEST3, qps(
        "what is the airspeed of a swallow",
        "Barn swallows cruise at about 11 metres per second (roughly 24 mph) when foraging, according to field "
        "measurements.",
        "Swallows migrate from Europe to southern Africa each autumn, a journey of up to 10,000 km.",
        "The phrase 'What is the airspeed velocity of an unladen swallow?' comes from Monty Python and the Holy Grail.",
    ), "A", amb=True),
    it(BEST3, qps(
        "docker container exits immediately",
        "Docker images are built from a Dockerfile with instructions like FROM, RUN and COPY.",
        "A container runs only as long as its main process. If the CMD finishes (for example a shell with no "
        "command, or a service that daemonises itself), the container exits. Run the process in the foreground.",
        "Use `docker ps -a` to list all containers, including stopped ones.",
    ), "B"),
    it(BEST3, qps(
        "how much water should I drink a day",
        "Coffee and tea count towards your fluid intake, despite their mild diuretic effect.",
        "Dehydration symptoms include dark urine, headaches and dizziness.",
        "The NHS suggests 6 to 8 cups or glasses of fluid a day, more if it's hot or you're exercising.",
    ), "C"),
    it(BEST3N, qps(
        "opening hours of the Rijksmuseum on Christmas day",
        "The Rijksmuseum is open every day of the year from 9:00 to 17:00.",
        "Tickets for the Rijksmuseum must be booked online for a time slot.",
        "The Rijksmuseum's most famous painting is The Night Watch by Rembrandt.",
    ), "A"),
    it(BEST3N, qps(
        "what is the population of Lagos in 2023",
        "Lagos was the capital of Nigeria until 1991, when Abuja became the capital.",
        "Lagos is famous for its music scene and as the birthplace of Afrobeat.",
        "Lagos State is the smallest state in Nigeria by area.",
    ), "none"),
    it(BEST3N, qps(
        "can dogs eat grapes",
        "Dogs can eat some fruits safely, such as apples (without seeds) and blueberries.",
        "Grapes and raisins are toxic to dogs and can cause sudden kidney failure, even in small amounts.",
        "Dogs need a balanced diet with protein, fats and some carbohydrates.",
    ), "B"),
    it(BEST3N, qps(
        "who won the 2018 FIFA world cup",
        "The 2018 FIFA World Cup was held in Russia from 14 June to 15 July 2018.",
        "The 2018 final was played at the Luzhniki Stadium in Moscow in front of 78,011 spectators.",
        "Croatia's Luka Modrić won the Golden Ball as the tournament's best player in 2018.",
    ), "none"),
    it(BEST5, qps(
        "excel formula count cells that are not blank",
        "Use SUM to add up numbers in a range, e.g. =SUM(A1:A10).",
        "COUNT counts cells that contain numbers only.",
        "Use =COUNTA(A1:A100) to count cells that are not empty; it counts text, numbers, errors and formulas that return "
        "an empty string.",
        "COUNTBLANK counts empty cells in a range.",
        "Conditional formatting can highlight blank cells.",
    ), "C"),
    it(BEST5, qps(
        "how to treat a minor burn",
        "Burns are classified as first, second or third degree depending on depth.",
        "Do not use ice, butter or creams on a burn.",
        "Sunburn can be prevented with sunscreen of SPF 30 or higher.",
        "Severe burns need emergency care; call an ambulance for large or deep burns.",
        "Cool the burn under cool or lukewarm running water for 20 minutes, remove jewellery nearby, then cover it "
        "loosely with cling film or a clean plastic bag.",
    ), "E"),
    it(BEST5, qps(
        "what is a roth ira",
        "A Roth IRA is an individual retirement account funded with after-tax dollars; qualified withdrawals in "
        "retirement, including earnings, are tax-free.",
        "A traditional IRA lets you deduct contributions now and pay tax on withdrawals later.",
        "401(k) plans are offered by employers and may include a matching contribution.",
        "The IRS sets annual contribution limits for IRAs.",
        "Index funds are a popular low-cost investment option.",
    ), "A"),
    it(BEST5, qps(
        "tomato plant leaves turning yellow at the bottom",
        "Tomatoes need at least six hours of direct sun per day.",
        "Blossom end rot shows as dark patches at the bottom of the fruit and is linked to irregular watering.",
        "Yellowing of the lowest, oldest leaves is often a sign of nitrogen deficiency or early blight; remove "
        "affected leaves, avoid wetting foliage and feed with a balanced fertiliser.",
        "Cherry tomatoes are easier to grow than beefsteak varieties.",
        "Tomato hornworms can strip a plant of leaves overnight.",
    ), "C"),
    it(BEST4, qps(
        "is it safe to take paracetamol while pregnant",
        "Paracetamol is the first choice of painkiller for pregnant women; take it at the lowest effective dose for "
        "the shortest time.",
        "Ibuprofen should be avoided in pregnancy, especially after 30 weeks, unless prescribed.",
        "Paracetamol overdose can cause serious liver damage.",
        "Pregnant women should take 400 micrograms of folic acid daily until week 12.",
    ), "A"),
    it(BEST4, qps(
        "js array remove element by index",
        "Use `arr.push(x)` to add an element to the end of an array.",
        "`arr.indexOf(x)` returns the first index of x, or -1 if not found.",
        "`arr.slice(start, end)` returns a shallow copy of part of an array without modifying it.",
        "`arr.splice(i, 1)` removes one element at index i and shifts later elements down; it modifies the array in "
        "place.",
    ), "D"),
    it(BEST4, qps(
        "how long does it take to get a UK driving licence after passing test",
        "You can start driving straight away after passing your test if you have a full licence application in.",
        "Your full licence should arrive within 3 weeks of passing your test, if the examiner sent your details to DVLA.",
        "The practical driving test lasts about 40 minutes.",
        "You need to pass the theory test before booking the practical test.",
    ), "B", amb=True),
    # ---- pairwise ----
    it(PAIR, qps(
        "how to descale a kettle",
        "Kettles come in plastic, glass and stainless steel. Glass kettles let you see the water boil.",
        "Fill the kettle halfway with equal parts water and white vinegar (or a sachet of citric acid), boil, leave "
        "for an hour, then empty and boil fresh water twice to rinse.",
    ), "B"),
    it(PAIR, qps(
        "what is the statute of limitations for breach of contract in England",
        "In England and Wales, a claim for breach of a simple contract must generally be brought within six years "
        "of the breach (twelve years for a contract executed as a deed), under the Limitation Act 1980.",
        "A contract is formed when there is an offer, acceptance, consideration and an intention to create legal "
        "relations.",
    ), "A"),
    it(PAIR, qps(
        "sourdough bread too dense",
        "Sourdough has been made for thousands of years and its tang comes from lactic and acetic acid bacteria.",
        "A dense crumb usually means under-proofing or a weak starter: make sure the starter doubles within 4–8 hours "
        "of feeding, and let the dough rise until it has grown by about 50% and feels airy.",
    ), "B"),
    it(PAIR, qps(
        "does travel insurance cover cancelled flights due to strikes",
        "Many policies cover cancellation caused by strikes only if the strike was not announced when you bought the "
        "policy; check the 'travel disruption' section for exclusions.",
        "Airlines must offer a refund or rerouting if they cancel your flight, whatever the reason.",
    ), "A", amb=True),
    # ---- audience ----
    it(AUDIENCE, "Drink water regularly through the day, especially when it's hot. If your pee is dark yellow, you "
                 "probably need to drink more.", 0),
    it(AUDIENCE, "Under MVCC, a snapshot-isolated transaction reads the version of each row committed before its "
                 "snapshot; write skew remains possible unless predicate locks or SERIALIZABLE are used.", 1),
    it(AUDIENCE, "Administer 0.5 mg IM adrenaline into the anterolateral thigh; repeat after 5 minutes if there is "
                 "no improvement.", 1),
    # ---- query intent --------------------------------------------------------------------------------------
    it(INTENT, "facebook login", "navigational"),
    it(INTENT, "why do cats purr", "informational"),
    it(INTENT, "buy nike pegasus 41 size 10", "transactional"),
    it(INTENT, "vets open now near me", "local"),
    it(INTENT, "download vlc for mac", "transactional", amb=True),
    it(INTENT, "bbc weather", "navigational", amb=True),
    # ---- relevance score -----------------------------------------------------------------------------------
    it(RELEVANCE, qp(
        "side effects of metformin",
        "The most common side effects of metformin are nausea, diarrhoea, stomach ache and loss of appetite. They "
        "usually improve after a few weeks. Rarely it can cause lactic acidosis.",
    ), 3),
    it(RELEVANCE, qp(
        "side effects of metformin",
        "Metformin is a medicine used to treat type 2 diabetes. It lowers blood sugar by reducing the amount of "
        "glucose the liver releases.",
    ), 1),
    it(RELEVANCE, qp(
        "side effects of metformin",
        "The Tour de France is a men's multiple-stage bicycle race held primarily in France each July.",
    ), 0),
    it(RELEVANCE, qp(
        "how to make cold brew coffee and how long does it keep",
        "Mix coarsely ground coffee with cold water at about 1:8, steep in the fridge for 12 to 18 hours, then strain "
        "through a filter.",
    ), 2),
    it(RELEVANCE, qp(
        "flights from manchester to lisbon in march",
        "TAP Air Portugal and easyJet both fly direct from Manchester to Lisbon, with daily flights in spring; flight "
        "time is around 2 hours 45 minutes.",
    ), 3, amb=True),
    it(RELEVANCE, qp(
        "react useEffect runs twice",
        "In development with React 18 StrictMode, React mounts, unmounts and remounts components to help you find "
        "missing cleanup, so effects run twice. This does not happen in production builds.",
    ), 3),
    it(RELEVANCE, qp(
        "react useEffect runs twice",
        "useMemo caches the result of a calculation between re-renders. Pass a function and a dependency array.",
    ), 1),
    it(RELEVANCE, qp(
        "cost of living in lisbon vs porto for a student",
        "Rents in Lisbon have risen sharply: a room in a shared flat in the centre now typically costs €500–700 a month.",
    ), 2),
    it(RELEVANCE, qp(
        "symptoms of a heart attack in women",
        "Heart attack symptoms include chest pain, shortness of breath and pain spreading to the arm, jaw or back. "
        "Women are more likely than men to also have nausea, unusual tiredness and indigestion-like discomfort.",
    ), 3),
    it(RELEVANCE, qp(
        "symptoms of a heart attack in women",
        "Cardiovascular disease is the leading cause of death worldwide. Risk factors include smoking, high blood "
        "pressure, high cholesterol and diabetes.",
    ), 1, amb=True),
    it(RELEVANCE, qp(
        "how to change a bike inner tube",
        "Release the brake, remove the wheel, use tyre levers to lift one side of the tyre off the rim, pull out the "
        "old tube, check the tyre for thorns, fit the new tube slightly inflated and work the tyre back on.",
    ), 3),
    it(RELEVANCE, qp(
        "how to change a bike inner tube",
        "The penny-farthing was popular in the 1870s and 1880s before the safety bicycle replaced it.",
    ), 0),
    it(RELEVANCE, qp(
        "train times london to edinburgh saturday",
        "LNER runs fast trains from London King's Cross to Edinburgh Waverley, taking about 4 hours 20 minutes.",
    ), 2, amb=True),
    it(RELEVANCE, qp(
        "what causes the seasons on earth",
        "Earth's seasons are caused by the tilt of its axis (about 23.4°). As Earth orbits the Sun, each hemisphere "
        "is tilted toward the Sun for part of the year, receiving more direct sunlight and longer days.",
    ), 3),
    it(RELEVANCE, LONG_RFC_PARTIAL, 2),
    it(RELEVANCE, qp(
        "vegan substitute for eggs in baking",
        "Chickpea water (aquafaba) whips like egg whites and works in meringues and mousses; flax eggs (1 tbsp ground "
        "flaxseed plus 3 tbsp water) bind cakes and cookies.",
    ), 3),
    # ---- medium-length passages ----------------------------------------------------------------------------
    it(ANSWERS, qp(
        "do I need a visa to visit japan for two weeks as a uk citizen",
        "Entry requirements (Japan) — last updated 3 June 2024. This advice reflects the UK government's "
        "understanding of current rules for people travelling on a full 'British Citizen' passport. Visa: you can "
        "visit Japan without a visa for up to 90 days for tourism, business meetings, or visiting friends and family. "
        "If you want to stay longer, or to work or study, you must get the right visa before you travel. Your "
        "passport must be valid for the whole time you are in Japan; no additional period of validity is needed. "
        "On arrival you will be photographed and fingerprinted, and immigration officers may ask to see a return or "
        "onward ticket and evidence that you have enough money for your stay. Some common medicines, including some "
        "over-the-counter cold and allergy remedies containing pseudoephedrine, are banned in Japan; check before "
        "you pack. You must carry your passport at all times. Customs: you can bring up to 1 million yen in cash "
        "without declaring it.",
    ), True),
    it(RELEVANCE, qp(
        "how do I claim back VAT as a sole trader in the UK",
        "Self Assessment is how HMRC collects Income Tax from people whose income isn't taxed automatically. As a "
        "sole trader you must register for Self Assessment by 5 October after the end of the tax year in which you "
        "started trading. You'll then file a return each year, online by 31 January, and pay any tax owed. You can "
        "deduct allowable expenses such as office costs, travel, stock and clothing for work (uniforms, protective "
        "clothing) from your turnover to work out your taxable profit. Keep records of all sales and expenses for at "
        "least five years after the 31 January submission deadline. If your turnover is under £1,000 you may not "
        "need to tell HMRC, thanks to the trading allowance.",
    ), 1),
    # ---- more multi-passage items ----------------------------------------------------------------------
    it(BEST3N, qps(
        "how many bones are in the adult human body",
        "Babies are born with around 270 bones, many of which fuse together as they grow.",
        "The femur, or thigh bone, is the longest and strongest bone in the body.",
        "An adult human skeleton usually has 206 bones, although the exact number varies slightly between people.",
    ), "C"),
    it(BEST5, qps(
        "how to stop a dripping tap",
        "Taps are usually made from brass and plated with chrome.",
        "A dripping tap usually needs a new washer (older taps) or cartridge (quarter-turn taps): turn off the water "
        "supply, remove the handle and headgear, replace the worn washer or cartridge, and reassemble.",
        "Mixer taps combine hot and cold water in a single spout.",
        "A dripping tap can waste more than 5,000 litres of water a year.",
        "Limescale can build up on tap aerators in hard water areas.",
    ), "B"),
    it(BEST5, qps(
        "when do the clocks go back in the UK",
        "British Summer Time was first introduced in 1916 during the First World War.",
        "Some people campaign to stay on summer time all year round.",
        "The clocks go forward one hour at 1am on the last Sunday in March.",
        "In the UK the clocks go back one hour at 2am on the last Sunday in October, returning to Greenwich Mean "
        "Time.",
        "Many smartphones and computers change the time automatically.",
    ), "D"),
    it(ANSWERS, qp(
        "how long should I boil an egg for a runny yolk",
        "Eggs are a good source of protein and contain vitamins D and B12. Store them in the fridge, away from "
        "strong-smelling foods, and use them by the best-before date.",
    ), False),
]
