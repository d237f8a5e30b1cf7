; Two counters from zero to two and one.
(define (problem tally-2)
  (:domain tally)
  (:objects zero one two - number left right - counter)
  (:init (shows left zero) (shows right zero) (succ zero one) (succ one two))
  (:goal (and (shows left two) (shows right one))))
