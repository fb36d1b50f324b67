"""Community moderation: personal attacks, spam, threats, doxxing, self-harm risk, toxicity."""

from ._kit import choice, it, noul, score

DOMAIN = "moderation"
PREFIX = "mod"

ATTACK = noul(
    "Does this comment insult or attack another person (not just criticise their argument, work or idea)?"
)
SPAM = noul(
    "Is this post spam: unsolicited advertising, link farming or a scam pitch unrelated to the discussion?"
)
THREAT = noul(
    "Does this message threaten violence or serious harm against a person or group?",
    true="A threat, wish or call to physically hurt someone, stated seriously.",
    false="No threat, or an obvious figure of speech or joke with no real target.",
)
DOXX = noul(
    "Does this post reveal someone else's private personal information, such as a home address, personal "
    "phone number, ID number or workplace combined with a real name, without their consent?"
)
SELF_HARM = noul(
    "Does the author indicate that they may be at risk of harming themselves?"
)

CATEGORY = choice(
    "Which policy category does this post fall under?",
    {
        "acceptable": "no violation; disagreement and criticism are allowed",
        "harassment": "insults, bullying or degrading remarks aimed at a specific person",
        "hate_speech": "attacks or dehumanising generalisations about a group based on a protected characteristic "
        "(race, ethnicity, nationality, religion, gender, sexual orientation, disability)",
        "spam": "advertising, scams or repeated promotional links",
        "violent_threat": "threats or incitement of physical violence",
        "self_harm": "the author expresses intent or risk of self-harm or suicide",
        "personal_information": "shares another person's private details",
    },
)
ACTION = choice(
    "What should the moderator do with this post?",
    {
        "approve": "leave it up, nothing wrong",
        "warn": "leave it up but send the author a civility reminder",
        "remove": "take the post down",
        "remove_and_ban": "take it down and suspend the account (severe or repeated abuse, threats, spam bots)",
        "escalate": "send to the trust-and-safety team (imminent danger, self-harm risk, legal issues)",
    },
)
TOXICITY = score(
    "Rate how toxic this message is.",
    [
        "not toxic: polite or neutral, even if critical",
        "mildly rude: sarcasm, dismissiveness, light name-calling",
        "clearly hostile: direct insults, contempt, aggressive language",
        "severe: degrading abuse, slurs, dehumanising language",
        "extreme: threats of violence or calls to harm",
    ],
)
CIVILITY = score(
    "How constructive is this contribution to the discussion?",
    [
        "destructive: only attacks or derails",
        "low value: off-topic or pure venting",
        "somewhat constructive: a point is made but with little support",
        "constructive: a clear, civil point with reasons or evidence",
    ],
)

LONG_THREAD_DOXX = """\
r/RiversideCommunity — "New bike lanes on Harlow Street: thoughts?"  (312 comments, sorted by old)

u/cadence_rides: Finally! I've been dodging delivery vans on Harlow for years. The painted buffer looks great.
u/marguerite_b: As someone who drives to work, I don't love losing the parking, but I get it. Cyclists have been asking for this forever.
u/tomtomtomtom: The paint is nice but it's not protected. Without bollards people will just park in it like they do on Ferry Road.
u/cadence_rides: @tomtomtomtom fair point, the council said bollards are "phase 2". We'll see.
u/oldtown_grocer: I run the shop at the corner of Harlow and 3rd. Deliveries have been a nightmare this week because the loading bay moved. Anyone know who to talk to?
u/riversidecouncil_official: @oldtown_grocer Hi, you can contact the Transport team at the council offices or through the online form. Loading bays are being reviewed after the first month.
u/gearhead77: Lanes are fine. The real issue is the traffic light timing at the river bridge. Three minutes of red for nothing.
u/marguerite_b: @gearhead77 that light has been broken since before the lanes, don't blame the cyclists for that one.
u/skatermum: My kids cycle to Harlow Primary and this is the first time I've felt okay letting them go on their own. Thank you to everyone who pushed for it.
u/tomtomtomtom: @skatermum that's genuinely lovely to hear.
u/pennyfarthing_pete: Measured it this morning: 1.8 m lane plus 0.5 m buffer. That's better than the national minimum.
u/gearhead77: @pennyfarthing_pete did you really go out with a tape measure lol
u/pennyfarthing_pete: @gearhead77 of course I did
u/nightshift_nurse: Please, cyclists, get lights. I drive home at 6am and some of you are invisible in dark clothing.
u/cadence_rides: @nightshift_nurse agreed, there's a free light giveaway at the library on Saturday btw.
u/harlow_resident_22: The construction noise at 7am for two weeks was awful, glad it's over.
u/gearhead77: Also who decided the lane should switch sides at the pharmacy? I nearly hit someone there.
u/riversidecouncil_official: @gearhead77 Thanks for the feedback — the transition at the pharmacy is being looked at. You can report specific spots on the council map.
u/bramble_and_oak: Anyone else notice the drains got blocked with the new kerbs? There was a lake outside number 40 after Tuesday's rain.
u/marguerite_b: @bramble_and_oak yes! reported it already.
u/tomtomtomtom: Honestly the best thing is that the buses seem faster now that people aren't double parking.
u/skatermum: Is there going to be a safe crossing at the school end? That's my only worry left.
u/riversidecouncil_official: @skatermum A zebra crossing is planned there for the spring.
u/gearhead77: The guy behind all this is that councillor who rides a cargo bike and never answers his email.
u/steel_and_stone: @gearhead77 you mean Councillor Dean Hartley? I'll save you the trouble of emailing. He lives at 17 Larkspur Close, the house with the green door, and his mobile is 07700 900 412. Go and tell him what you think in person.
u/marguerite_b: @steel_and_stone whoa, not cool. Please delete that.
u/cadence_rides: Reported. Disagree with him all you like but don't post his home address.
u/pennyfarthing_pete: Back on topic: does anyone know if e-scooters are allowed in the lane?
u/riversidecouncil_official: @pennyfarthing_pete Rental e-scooters are permitted in cycle lanes under the trial scheme; private ones are not road-legal.
u/nightshift_nurse: Honestly I think it's working. Traffic seems no worse than before.
u/oldtown_grocer: Update: the council rang me back about the loading bay, they're moving it 20 metres up. Thanks for the pointer.
u/harlow_resident_22: Can we also get some trees planted along there? It's very grey.
u/bramble_and_oak: +1 for trees. And benches.
u/tomtomtomtom: Give it six months and let's see the accident stats before we declare victory.
u/skatermum: Fair enough, but so far so good from our end.
"""

LONG_THREAD_THREAT = """\
Discord export — server "Pixelforge Modding", channel #general — 2024-05-11

[17:41] Saffron (mod): evening all. reminder the modding jam starts next saturday, sign-ups in #events
[17:43] mossy: already signed up, doing a furniture mod
[17:44] brick_layer_99: is there a theme?
[17:44] Saffron (mod): theme gets announced at the start. teams of up to 3
[17:47] Kiwi_Kid: can i join if i've never made a mod before
[17:48] Saffron (mod): @Kiwi_Kid absolutely, there's a beginner track with a template project
[17:49] Kiwi_Kid: nice!!
[17:55] grumpyOldCreeper: last jam the winner just reskinned cows. just saying
[17:56] mossy: @grumpyOldCreeper the cows had hats. hats are innovation
[18:02] vantablack: anyone got the 1.21 version of the shader pack yet
[18:02] mossy: not out yet, dev said "soon™"
[18:03] vantablack: classic
[18:05] Kiwi_Kid: my world keeps crashing when i load the nether with the new biome mod, log says something about a null chunk
[18:06] mossy: @Kiwi_Kid post the crash log in #support, the pinned message has a template
[18:06] Kiwi_Kid: ty
[18:10] grumpyOldCreeper: who changed the server icon it's ugly
[18:10] Saffron (mod): me. it's for the anniversary, it changes back next week
[18:11] grumpyOldCreeper: fine fine
[18:14] lumen_dev: pushed 0.9.3 of the lighting mod, fixes the flicker with glass panes. changelog in #releases
[18:15] vantablack: lumen you are a legend
[18:15] mossy: omg the flicker was driving me insane
[18:20] Kiwi_Kid: ok the crash was my fault, I had two versions of the library installed
[18:21] mossy: happens to everyone lol
[18:30] brick_layer_99: is it normal for the mod to use 6 gigs of ram
[18:31] lumen_dev: @brick_layer_99 no, that's probably the texture pack, try without it
[18:33] brick_layer_99: you're right, down to 3 gigs
[18:40] hexagon: lumen_dev your mod broke my 200 hour world, all the lights are gone
[18:41] lumen_dev: @hexagon sorry! did you back up? 0.9.3 changed the block ids, there's a migration tool in the release notes
[18:41] hexagon: i didn't know i needed a backup
[18:42] mossy: @hexagon always back up before updating mods, it's rule #1
[18:44] hexagon: the migration tool doesn't work either
[18:45] lumen_dev: can you send me the world save? i'll try to fix it by hand
[18:50] hexagon: i don't want your help. 200 hours. you should have warned people
[18:51] Saffron (mod): @hexagon it's frustrating but the warning was in bold at the top of the release notes
[18:52] hexagon: nobody reads those
[18:55] vantablack: rip the world, that sucks hexagon
[19:02] hexagon: lumen_dev I know you're in Leeds, you posted your uni on your profile. keep breaking people's worlds and I'll find you after your lectures and break your face. not joking
[19:03] mossy: dude what
[19:03] Saffron (mod): @hexagon that's not okay. you're muted for now, we're reviewing this.
[19:04] lumen_dev: ...ok that's actually scary. i'm going offline for a bit
[19:05] vantablack: that was way over the line
[19:10] grumpyOldCreeper: can we go back to talking about shaders pls
[19:12] brick_layer_99: anyone know a good seed for a mushroom island start
[19:13] mossy: -8812734001 spawns you right next to one
[19:15] brick_layer_99: perfect thanks
[19:20] Kiwi_Kid: the new biome mod is so good now that it works
[19:24] Saffron (mod): reminder: server rules are pinned in #rules. be nice to the people who make the mods you use for free.
[19:30] vantablack: shader pack is out!!! link in #releases
[19:30] mossy: LETS GOOO
[19:31] Kiwi_Kid: downloading
[19:40] brick_layer_99: looks amazing with the water reflections
[19:44] grumpyOldCreeper: my fps went from 90 to 25. beautiful slideshow
[19:45] mossy: @grumpyOldCreeper turn off volumetric clouds, that's the big one
[19:47] grumpyOldCreeper: ok 70 now. i take it back
[19:52] Saffron (mod): @lumen_dev when you're back, no pressure, but DM me if you want to talk about what happened. we've got your back.
"""

LONG_REVIEW_THREAD = """\
Product page: "Harbor 3-in-1 Convertible Car Seat" — Customer questions & answers (showing 18 of 41)

Q: Does this fit in a Honda Fit rear facing? — asked by Sam R.
A: We have a 2019 Fit and it fits rear facing behind the passenger seat, but the front seat has to be moved forward quite a bit. Fine for a shorter passenger. — Jenna
A: Fits, but tight. I'd say try it in the store first if you can. — Omar K.

Q: Is the cover machine washable? — asked by Priti
A: Yes, cold wash, hang dry. It took me ten minutes to get it back on the first time, faster after that. — Delia
A: Washable. The straps are not, you wipe those. — Harbor Support

Q: How heavy is it? I need to move it between two cars every day. — asked by Marcus
A: About 11 kg. It's not light. If you're swapping daily I'd get a second seat honestly. — Jenna
A: Heavy but the latch connectors make installation quick. — Tomasz

Q: Can you use it on an airplane? — asked by Lin
A: It's FAA approved, there's a sticker on the side. It's very wide though, I'd check your airline's seat width. — Rachel
A: We flew with it twice on United, it fit, barely. — Bo

Q: Is this worth the money compared to the cheaper Graco? — asked by Daniela
A: Depends. This one has better side impact padding and the harness adjusts without rethreading, which is a big deal as they grow. — Omar K.
A: I have both. The Harbor is more comfortable for my kid on long drives, the Graco is easier to carry. — Delia
A: Honestly anyone who buys the cheap one because they want to save fifty bucks shouldn't be allowed to have kids. — mommacare2020
A: @mommacare2020 That's a pretty unkind thing to say to someone asking a reasonable question. Both seats pass the same safety tests. — Rachel

Q: At what weight do I switch to forward facing? — asked by Hannah
A: The manual says rear facing up to 18 kg, but check your local laws, and keep them rear facing as long as possible. — Harbor Support

Q: The chest clip keeps popping open, is that normal? — asked by Ken
A: No, that's not normal. Contact support, mine was replaced for free. — Jenna
A: Please contact us with your serial number, we'll send a new clip. — Harbor Support

Q: Does the cup holder come off? — asked by Avi
A: Yes, it clips off. Mine fell off on its own a lot, so maybe just leave it off. — Bo

Q: Any smell when new? — asked by Grace
A: A little bit for the first two days. I aired it out on the balcony. — Priti
A: No smell at all on mine. — Marcus

Q: Is it easy to install with a seatbelt rather than ISOFIX? — asked by Callum
A: Doable but takes some muscle to get it tight. There's a lock-off that helps. Watch the video on their site. — Tomasz
A: I had a fire station check mine, they said the belt install was perfect. Worth doing. — Hannah

Q: Does it recline enough for a newborn? — asked by Nadia
A: Yes with the infant insert. Without the insert my newborn slumped a bit. — Delia
A: Use the level indicator on the side; it tells you the right angle. — Harbor Support

Q: How long does it last before expiring? — asked by Ola
A: 10 years from manufacture, date is on the bottom. — Rachel
A: Also replace it after any crash, even a small one. The manual is clear about that. — Harbor Support

Q: Is the fabric hot in summer? — asked by Luis
A: It's breathable-ish. My son still gets a sweaty back in July but less than in our old seat. — Omar K.
A: We added a cotton liner, works fine. — Grace

Q: Will it fit three across in a Tesla Model 3? — asked by Kim
A: We did two of these plus a booster. Very snug, and the middle booster is hard to buckle. — Bo
A: Only if the other two seats are narrow ones. Measure first. — Tomasz

Q: Can grandparents figure out the harness? — asked by Ruth
A: My dad (78) manages fine after one demo. The one-pull tightener is easy. — Delia
"""

ITEMS = [
    # ---- personal attack? ----------------------------------------------------------------------
    it(ATTACK, """
        Your benchmark is flawed: you ran the Rust version in debug mode and the Go version with optimisations.
        Rerun both in release mode and the gap disappears.
        """, False),
    it(ATTACK, """
        Only a complete moron would think that pineapple belongs on a pizza. Seriously, @carla_eats, are you
        okay in the head?
        """, True),
    it(ATTACK, """
        This is the worst take I've read all week. The article you linked literally says the opposite of what
        you claim in paragraph two.
        """, False),
    it(ATTACK, {
        "platform": "recipe site comments",
        "author": "bakesalot",
        "reply_to": "user 'NewbieBaker' who posted a photo of a collapsed sponge cake",
        "text": "lol no wonder your husband left, you can't even follow a recipe for a sponge",
    }, True),
    it(ATTACK, """
        With respect, Dr. Osei, your estimate of the sample size is off by an order of magnitude. I'd suggest
        re-reading section 3 of the protocol before the next meeting.
        """, False),
    it(ATTACK, """
        Typical Gareth, never actually reads the thread before posting. Bless him.
        """, True, amb=True),
    # ---- spam? ---------------------------------------------------------------------------------------
    it(SPAM, """
        🔥🔥 Make $5,000/week from home!! No experience needed. DM me "RICH" or visit quick-cash-4u .biz 🔥🔥
        """, True),
    it(SPAM, """
        For anyone asking about the sourdough starter, I followed the King Arthur guide and it worked on the
        second try. Feed it at the same time every day, that was the trick for me.
        """, False),
    it(SPAM, """
        Great article! Speaking of cybersecurity, check out my site for the cheapest VPN deals and crypto
        signals: www.best-vpn-crypto-deals.net/?ref=9921 — use code SAVE80!!!
        """, True),
    it(SPAM, {
        "platform": "woodworking forum",
        "thread": "Best finish for an outdoor oak bench?",
        "author": "HollinsTimber (verified business account)",
        "text": "Full disclosure, I sell finishes, but for oak outdoors I'd genuinely go with a penetrating oil "
                "like tung or a marine spar varnish rather than polyurethane, which peels. Reapply yearly. Happy to "
                "answer questions, no need to buy from us.",
    }, False, amb=True),
    it(SPAM, """
        Hi dear, I am Sgt. Williams working with UN peace keeping. I have a consignment of 2.5 million dollar that
        I need your help to move. Reply with your phone number for details. God bless.
        """, True),
    it(SPAM, """
        My band is playing at The Crown on Friday if anyone in Leeds wants to come — it's free entry. Sorry for
        the plug, mods delete if not allowed!
        """, True, amb=True),
    # ---- threat? --------------------------------------------------------------------------------------
    it(THREAT, """
        If my team loses the derby again this weekend I'm going to die of embarrassment.
        """, False),
    it(THREAT, """
        I know where you park your car, Jamie. Keep posting about me and see what happens to it, and to you.
        """, True),
    it(THREAT, """
        The referee should be banned from officiating. That was the most incompetent performance I've ever seen.
        """, False),
    it(THREAT, {
        "platform": "neighbourhood app",
        "author": "anon_4471",
        "text": "To whoever keeps letting their dog foul outside number 12: next time I see you I'm going to "
                "break your legs so you can't walk it anymore.",
    }, True),
    it(THREAT, """
        Honestly I could strangle my brother sometimes, he ate the last slice of my birthday cake 😤
        """, False),
    it(THREAT, """
        People like the new zoning director deserve whatever is coming to them. Just saying. Someone should pay
        her a visit.
        """, True, amb=True),
    it(THREAT, LONG_THREAD_THREAT, True),
    # ---- doxxing? ---------------------------------------------------------------------------------------
    it(DOXX, """
        The guy who cut me off on the M62 this morning was driving a silver Audi, plate begins with YK19.
        Absolute menace.
        """, False),
    it(DOXX, """
        FYI the person running the @TruthAboutBrookvale account is Linda Pryce, she works at the pharmacy on
        Cedar Road and lives at 4 Mill Court. Everyone should know who's behind it.
        """, True),
    it(DOXX, """
        You can reach the mayor's office at city hall on 555-0100 during business hours, or email
        mayor@brookvale.gov.
        """, False),
    it(DOXX, """
        Here's my own number if anyone wants to carpool to the conference: 07700 900 118 (Sinead). Text, don't
        call!
        """, False),
    it(DOXX, LONG_THREAD_DOXX, True),
    # ---- self-harm risk? --------------------------------------------------------------------------------
    it(SELF_HARM, """
        I've been giving away my things this week. I wrote letters to my sister and my best friend. I just don't
        see the point of being around much longer.
        """, True),
    it(SELF_HARM, """
        This exam is killing me lol. Three more to go and then I'm sleeping for a week.
        """, False),
    it(SELF_HARM, """
        Lately I feel numb all the time and I've started scratching my arms again when it gets bad. I haven't
        told anyone.
        """, True),
    it(SELF_HARM, """
        Does anyone have tips for dealing with grief? My grandmother passed last month and some days are really
        hard, but my counsellor has been helping.
        """, False, amb=True),
    # ---- category ------------------------------------------------------------------------------------------
    it(CATEGORY, """
        I disagree with the new moderation rules. Locking threads after 48 hours kills long technical discussions.
        Could we at least make an exception for the hardware subforum?
        """, "acceptable"),
    it(CATEGORY, """
        @priya_k you're so ugly it's no surprise nobody replies to your posts. Go back to lurking.
        """, "harassment"),
    it(CATEGORY, """
        Immigrants from that country are all criminals and parasites. They should be rounded up and sent back,
        every last one.
        """, "hate_speech"),
    it(CATEGORY, """
        BUY CHEAP FOLLOWERS 10K FOR $9 ✅ REAL ACCOUNTS ✅ FAST DELIVERY ✅ link in bio
        """, "spam"),
    it(CATEGORY, """
        If the council votes for the incinerator on Thursday, I'll be waiting outside with a few friends and some
        baseball bats. They've been warned.
        """, "violent_threat"),
    it(CATEGORY, """
        I don't think I can keep going. I've got the pills lined up and I just want it to stop. Sorry everyone.
        """, "self_harm"),
    it(CATEGORY, """
        For everyone asking who the referee in last night's youth game was: Kevin Marsh, 22 Acacia Avenue,
        Dunmore. His number is 0871 555 2290. Go tell him what you think.
        """, "personal_information"),
    it(CATEGORY, """
        Women just aren't cut out for engineering, it's biology. That's why the department was better before
        they started hiring them.
        """, "hate_speech"),
    it(CATEGORY, """
        You've posted the same question in four threads now, Marco. Just wait for an answer instead of spamming
        the board, it's really annoying.
        """, "acceptable", amb=True),
    it(CATEGORY, """
        Every single day you comment on my photos with something nasty, @jt_88. I blocked your last two accounts.
        Now this one calls me a fat cow under my wedding pictures. Please stop.
        """, "acceptable"),
    it(CATEGORY, """
        Hey @sandra_m, saw you at the gym again, still not losing any weight huh? Maybe try eating less
        cake 🐷🐷
        """, "harassment"),
    it(CATEGORY, """
        Jews secretly control the banks and the media, that's why nothing ever changes for ordinary people.
        Wake up.
        """, "hate_speech"),
    it(CATEGORY, """
        I reviewed the moderator logs and the ban on @tinkerbelle looks inconsistent with how similar posts were
        handled last month. Could the mod team explain the reasoning publicly?
        """, "acceptable"),
    it(CATEGORY, """
        Check out this amazing opportunity!!! Earn passive income with our trading bot — 300% returns guaranteed.
        Join the Telegram: t.me/profitbot_official
        """, "spam"),
    # ---- action ---------------------------------------------------------------------------------------------
    it(ACTION, """
        Thanks for the detailed write-up, the tip about checking the fuse box first saved me a call-out fee.
        """, "approve"),
    it(ACTION, """
        Oh great, another genius who didn't read the FAQ. It's literally the first question. Try using your eyes.
        """, "warn"),
    it(ACTION, """
        Posting the full PDF of the new Sanderson novel here for anyone who doesn't want to pay:
        drive.google.com/file/d/1xQ7sK0-pirate-copy (grab it before it gets taken down)
        """, "remove"),
    it(ACTION, {
        "author": "deals_4_u_9981",
        "account_age_days": 0,
        "posts_last_hour": 37,
        "text": "Best replica watches at lowest price!! Rolex Omega Cartier from $49 — visit luxwatch-outlet.shop",
    }, "remove_and_ban"),
    it(ACTION, """
        I'm sitting on the bridge railing right now. I just wanted someone to know. Please don't reply with a
        hotline number, I've seen them all.
        """, "escalate"),
    it(ACTION, """
        That's not how vaccines work and you know it. Stop spreading nonsense, it's embarrassing.
        """, "warn", amb=True),
    it(ACTION, """
        The review in this thread is mine and I'd like it taken down — I wrote it while angry and it includes the
        name of the waiter, which wasn't fair on him.
        """, "remove", amb=True),
    it(ACTION, """
        Does anyone know if the 14B bus is still running on Sundays? The timetable on the website is from 2022.
        """, "approve"),
    it(ACTION, """
        I'm going to find out where the moderator who banned me lives and show up at his door. You can't hide
        behind a screen forever, Dave.
        """, "escalate", amb=True),
    # ---- toxicity ------------------------------------------------------------------------------------------
    it(TOXICITY, """
        I think the second half of the season dragged, but the finale made up for it. Curious what others
        thought.
        """, 0),
    it(TOXICITY, """
        Wow, what a groundbreaking insight. Nobody has ever thought of that before. 🙄
        """, 1),
    it(TOXICITY, """
        You are a pathetic, lying little weasel and everyone on this forum can see it.
        """, 2),
    it(TOXICITY, """
        Anyone who votes for that party is subhuman garbage and should be treated like the vermin they are.
        """, 3),
    it(TOXICITY, """
        Next time you show up at the stadium in that shirt you're getting stabbed. I mean it.
        """, 4),
    it(TOXICITY, """
        Please stop tagging me in these posts. I've asked twice now.
        """, 0),
    it(TOXICITY, """
        Dude, that's a dumb idea, no offence. It'll never work with the budget you've got.
        """, 1),
    it(TOXICITY, """
        Shut up, nobody asked you. You've been wrong about literally everything on this board since you joined.
        """, 2, amb=True),
    it(DOXX, LONG_REVIEW_THREAD, False),  # the long Q&A thread: first names only, nothing private
    # ---- constructiveness -----------------------------------------------------------------------------------
    it(CIVILITY, """
        This is garbage and so are you.
        """, 0),
    it(CIVILITY, """
        ugh mondays am i right
        """, 1),
    it(CIVILITY, """
        I don't think the four-day week trial will work for retail — someone has to staff the shop on Fridays.
        """, 2),
    it(CIVILITY, """
        I'd push back on the claim that the new road increased traffic. The council's counts (linked) show flows
        on Elm Street fell 8% after opening, and the increase on Bridge Road is within the normal seasonal swing.
        Happy to be corrected if someone has newer data.
        """, 3),
    it(CIVILITY, """
        The library should stay open till 8 on weekdays. Students and shift workers can't come before 6, and the
        branch in Hallam already does it on the same budget by closing Monday mornings instead.
        """, 3),
    it(CIVILITY, """
        Everyone in this thread is an idiot except me, as usual. Anyway, I think the plan is okay-ish.
        """, 1, amb=True),
    it(CIVILITY, """
        Stop feeding the troll, people. He's been doing this for weeks.
        """, 1),
    # ---- medium-length posts --------------------------------------------------------------------------------
    it(ATTACK, """
        I've played every game this studio has made since 2011 and I have to say the new one is a mess. The
        crafting system has been gutted: half the recipes from the beta are gone, the inventory cap is so low
        you spend more time in menus than playing, and the "seasonal pass" locks the best armour behind a
        paywall after you've already paid £60 for the game. The writing in the main story is fine but the side
        quests are copy-paste fetch jobs. Performance on PS5 is poor in the city areas (drops into the low 20s).

        I'm not saying the developers are bad people, and I know crunch is real and decisions like the pass usually
        come from publishers. But someone signed off on this design and I think the community is right to push
        back. If the next patch restores the beta recipes and lifts the inventory cap I'll happily change my
        review. Until then it's a 5/10 from me.
        """, False),
    it(CATEGORY, """
        @lena_draws every time you post your "art" I feel embarrassed for you. I've gone through your last twenty
        uploads and every one of them is traced, badly. You're a talentless fraud and everyone in this community
        knows it, they're just too polite to say it. Honestly do us all a favour and delete your account. I'll
        keep commenting on every single thing you post until you do. Nobody wants you here, you pathetic little
        attention seeker.
        """, "harassment"),
    it(SELF_HARM, """
        Update on the marathon training: knee is finally better after six weeks of physio. Did 18 miles on
        Sunday and felt great. Thanks to everyone in here who talked me out of quitting back in March!
        """, False),
]
