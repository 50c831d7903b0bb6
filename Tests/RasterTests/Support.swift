import PopoverRaster

/// A canvas of `width` x `height` pixels at scale 1.
func canvas(_ width: Int, _ height: Int, scale: Double = 1) -> Canvas {
    Canvas(Pixmap(width: width, height: height, scale: scale))
}

func rectPath(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Path {
    var p = Path()
    p.addRect(x: x, y: y, width: w, height: h)
    return p
}

func circlePath(_ cx: Double, _ cy: Double, _ r: Double) -> Path {
    var p = Path()
    p.addArc(centerX: cx, cy, radius: r, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
    p.close()
    return p
}

/// Alpha of every pixel summed, in whole pixels.
func coveredArea(_ pixmap: Pixmap) -> Double {
    var sum = 0
    for i in stride(from: 3, to: pixmap.data.count, by: 4) { sum += Int(pixmap.data[i]) }
    return Double(sum) / 255
}

let opaqueBlack = Paint.solid(.black)
