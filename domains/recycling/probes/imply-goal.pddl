;; probe: another quantified goal: only the items of material glass must be in a bin that takes glass.
(define (problem recycling-probe-imply-goal)
  (:domain recycling)
  (:objects
    hall kitchen yard - location
    bottle jar can - item
    green grey - bin
    glass metal - material)
  (:init
    (robot-at yard)
    (connected hall kitchen) (connected kitchen hall) (connected kitchen yard) (connected yard kitchen)
    (bin-at green hall) (bin-at grey yard)
    (accepts green glass) (accepts grey metal)
    (made-of bottle glass) (made-of jar glass) (made-of can metal)
    (at bottle kitchen)
    (in jar grey)
    (at can hall))
  (:goal (forall (?i - item)
           (imply (made-of ?i glass) (exists (?b - bin) (and (in ?i ?b) (accepts ?b glass)))))))
