extension SevenImageMetrics {
    /// Throws unless every number is finite and not negative and each image's cap
    /// insets leave a stretchable region (of zero or more points) inside the image.
    ///
    /// Overlapping caps have no meaningful stretch, so they are rejected here
    /// rather than left for the renderer to guess at.
    public func validate() throws(GeometryError) {
        try popoverMetrics.validate()
        try requireMetric("side arrow centre offset", sideArrowCenterOffset)
        try requireMetric("second-stage bottom inset", secondStageBottomInset)
        try requireMetric("second-stage right inset", secondStageRightInset)
        for image in ArrowImage.allCases {
            try validate(self[image], of: image)
        }
    }

    private func validate(_ spec: ImageSpec, of image: ArrowImage) throws(GeometryError) {
        try requireMetric("image '\(image)' width", spec.size.width)
        try requireMetric("image '\(image)' height", spec.size.height)
        try requireMetric("image '\(image)' cap inset", spec.capInsets)
        let region = spec.stretchableSize
        guard region.width >= 0, region.height >= 0 else {
            throw .capInsetsTooLarge(image: image, size: spec.size, capInsets: spec.capInsets)
        }
    }
}
