(define (problem sprawl-40)
  (:domain sprawl)
  (:objects p0 p1 p2 p3 p4 p5 p6 p7 p8 p9
            p10 p11 p12 p13 p14 p15 p16 p17 p18 p19
            p20 p21 p22 p23 p24 p25 p26 p27 p28 p29
            p30 p31 p32 p33 p34 p35 p36 p37 p38 p39 - place)
  (:init (at p0)
         (link p0 p1) (link p1 p2) (link p2 p3) (link p3 p4) (link p4 p5) (link p5 p6)
         (link p6 p7) (link p7 p8) (link p8 p9) (link p9 p10) (link p10 p11) (link p11 p12)
         (link p12 p13) (link p13 p14) (link p14 p15) (link p15 p16) (link p16 p17) (link p17 p18)
         (link p18 p19) (link p19 p20) (link p20 p21) (link p21 p22) (link p22 p23) (link p23 p24)
         (link p24 p25) (link p25 p26) (link p26 p27) (link p27 p28) (link p28 p29) (link p29 p30)
         (link p30 p31) (link p31 p32) (link p32 p33) (link p33 p34) (link p34 p35) (link p35 p36)
         (link p36 p37) (link p37 p38) (link p38 p39))
  (:goal (at p3)))
